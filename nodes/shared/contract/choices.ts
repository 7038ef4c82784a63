/**
 * The open choices of the interface document ("not shown"), each under the one name the sandbox
 * plays it by (sandbox/lib/profiles.mjs CHOICES, sandbox/lib/generated.mjs GENERATED_CHOICES)
 * and docs/assumptions.md uses, with the node's answer and where that answer lives.
 * test/sandbox/choices.test.mjs checks that the two sides name the same choices and the docs
 * name each one: a choice the node makes that the sandbox cannot play fails there.
 */
export interface OpenChoice {
	/** What the document leaves open. */
	question: string;
	/** How the node answers, and the constant or module that holds the answer. */
	node: string;
}

export const OPEN_CHOICES = {
	pageCap: {
		question: 'How many records a list page holds at most',
		node: 'Asks PAGE_SIZE and learns a cap from a short page (pager.ts)',
	},
	maxLimit: {
		question: 'The largest `limit` a list accepts',
		node: 'A refused `limit` is asked again smaller: PAGE_SIZE_STEPS (assumptions.ts)',
	},
	limitRefusal: {
		question: 'How a refused `limit` names the size accepted',
		node: 'Read from details or the message, else the next of PAGE_SIZE_STEPS (pager.ts)',
	},
	listTotal: {
		question: 'Whether a list envelope carries a total',
		node: 'ENVELOPE_TOTAL_KEYS when present, the end of the pages otherwise',
	},
	totalKey: {
		question: 'Under which name a list total stands',
		node: 'ENVELOPE_TOTAL_KEYS (assumptions.ts)',
	},
	count: {
		question: 'Whether `count` is the page length or the total',
		node: 'ENVELOPE_COUNT_KEYS: a total only when larger than the page',
	},
	shape: {
		question: 'Whether a list answer is a bare array or an envelope',
		node: 'Both read (readPage in pager.ts)',
	},
	itemsKey: {
		question: 'Under which key an envelope holds its records',
		node: 'The list’s own key, ENVELOPE_ITEM_KEYS, or its only array',
	},
	listOrder: {
		question: 'Newest or oldest first, where the document does not say',
		node: 'Either: records are kept by ID, never by position',
	},
	order: {
		question: 'Newest first, oldest first or no order at all (per list, generated mode)',
		node: 'None relied on but GET /disputes’: read to the end, emitted by own times (read.ts, poll.ts)',
	},
	arrivals: {
		question: 'Whether records arrive while a list is read',
		node: 'PAGE_OVERLAP and identity by ID (pager.ts)',
	},
	departures: {
		question: 'Whether records leave while a list is read',
		node: 'PAGE_OVERLAP and identity by ID (pager.ts)',
	},
	ignoresQuery: {
		question: 'Whether a list applies query parameters the document does not show',
		node: 'Every filter sent is checked on what comes back: QUERY_SHOWN (listAnswers.ts)',
	},
	idField: {
		question: 'Under which field a list record carries its ID',
		node: 'RECORD_ID_FIELDS: `id`, else the event’s name for it (listAnswers.ts)',
	},
	disputeReason: {
		question: 'Whether the reason of an existing dispute comes back as sent',
		node: 'Never compared: open disputes listed first, EXISTING_DISPUTE_AGE_MS',
	},
	profileSecret: {
		question: 'Whether the profile shows `webhookSecret` masked or in full',
		node: 'Masked in the output by the gate (shared/gate/) unless Reveal Webhook Secret is on: the user sees `whsec_…` and its last 4 characters, the model only `whsec_…` (gate/masks.ts maskWebhookSecret; outside read r19-data, finding 10); the webhook trigger learns a secret shown in full when no held secret verifies a delivery, and never keeps a masked one (CompanyPaymentsTrigger/profileSecret.ts)',
	},
	idempotencyScope: {
		question: 'What an Idempotency-Key is unique within',
		node: 'Derived keys are unique per execution, node, run and item; a sub-workflow’s per calling execution, node, run, item and the item’s content, so the caller’s Retry On Fail sends them again and the same item handed to it twice in one calling execution is paid once (money/key.ts parentKey)',
	},
	idempotencyStoresFailures: {
		question: 'Whether a failed answer is stored under its key and replayed',
		node: 'Derived keys are new per execution; a refused key may be sent again (money/write.ts)',
	},
	staleKeyLogin: {
		question: 'Whether login accepts a revoked key',
		node: 'Either: the error names the rotated key (company/login.ts)',
	},
	rechargeKeepsRefundedAt: {
		question: 'Whether a recharged payout keeps `refundedAt`',
		node: 'Funds returned only while the payout is not success (payoutFunds.ts)',
	},
	repeatTransitions: {
		question:
			'Which field tells a repeated transition of one record (a second refund, a second recharge, an order disputed again) from a retry, on both sides',
		node: 'The first of CHANGE_TIMES (contract/visits.ts, updatedAt first) its side shows, the webhook never a time the service may keep (KEPT_TIMES), else the delivery (X-Service-Delivery-Id, else the body’s SHA-256) or the poll that saw it; a body naming no record the delivery’s own key (delivery:webhook:…), never null; every payout state may come back (taken, released, taken again), and every order state (taken, released to created, taken again: the delivery or the poll when no updatedAt is shown), a deposit’s by updatedAt (the User-wallet deposit record shows none: twice across triggers), else the delivery or the poll (AML failed, checked again, failed again), a dispute’s by updatedAt, resolvedAt or the poll, a card’s by its id (with its externalId) and updatedAt, the poll’s moved assignedAt, else the delivery or the poll (assigned, closing, assigned again; a closed card’s externalId reused): a duplicate across triggers, never a lost change (changeKey.ts)',
	},
	revisitTimes: {
		question:
			'Whether a state entered again keeps the times of its first visit (takenAt, completedAt) or moves them, and whether it is left and entered again between two polls',
		node: 'The poll remembers each record’s VISIT_EVIDENCE: the same state with a time moved is a new visit, a refundedAt set on a success is a recharge; a kept time names no visit (contract/visits.ts, poll.ts)',
	},
	listingOmits: {
		question:
			'Whether a listing answer can leave out a record it showed before (a lagging replica)',
		node: 'A record left out stays remembered for ABSENT_POLLS_REMEMBERED polls, so it is not new when it comes back (state.ts)',
	},
	numberForms: {
		question:
			'Which JSON type an amount has, and how many digits it is written with (trailing zeros, more than a double holds)',
		node: 'A number when a double gives back its written value (trailing zeros are no part of it: 1000.50 is 1000.5), else the written text; compared on the text, never rounded (transport/json.ts, shared/decimal.ts)',
	},
	unknownFields: {
		question:
			'Fields of a member, an invite, the company profile and a card’s sensitive data beyond the few shown (a member key, a PIN)',
		node: 'Closed by default: a field these records do not declare is masked, whatever it holds, until CLOSED_RECORDS declares it; every name the document gives a value that is no secret (usdtBalance, cardOpeningFeeUsdt, role, permissions, message) is declared and read by its kind, and an undeclared field named as a time (ending in at, until, since, time, date, timestamp: rotatedAt, previousKeyValidUntil) whose value is an ISO 8601 date or date-time (or null) is shown (declaredIn, plainTimeIn in contract/records.ts; gate/fields.ts; outside read r16-data, finding 7); any other undeclared field is shown exactly when both its name and every name above it are no secret’s (no word of a secret or card data: pin, cvv, key, token, secret, password, code, otp, seed, salt, session, card, pan…, or such a word followed by a describing last word: keyId, keyType, pinLimit, invitedBy; CLOSED_SECRET_WORDS, CLOSED_PLAIN_LAST_WORDS, closedFieldName in contract/records.ts) and its value cannot be a secret (no run of 13–19 digits passing the card checksum of any scheme, no run of 3–8 digits under a name with a secret’s word, no word of 16 characters or more with a token’s look unless a UUID under an ID’s name or one the run names, not the credential’s key or webhook secret or a learned secret, nothing a text’s patterns mask; a name/value pair naming a secret stays hidden): a profile’s inn, feePercent, timezone, plan, limits.dailyRub, a new key’s keyId and keyType, a member’s invitedBy and position (outside read r17-data, finding 7; gate/fields.ts shownWhenPlain); everything else stays hidden as before',
	},
	cardSchemes: {
		question:
			'Which numbers in a text or a field the document does not show are card numbers (the document names no card scheme; Russian texts carry OGRN, OGRNIP, INN and account numbers that may pass the card checksum)',
		node: 'Where nothing names a number, a run of 13–19 digits is a card only when it passes the card checksum and its length and leading digits are a scheme’s (CARD_SCHEMES, gate/patterns.ts: Visa 4 (13, 16, 19), Mastercard 51–55 and 2221–2720 (16), Mir 2200–2204 (16–19), American Express 34, 37 (15), Diners Club 300–305, 3095, 38–39 (14, 16–19) and 36 (14–19), JCB 3528–3589 (16–19), Discover 6011, 644–649, 65 (16–19), UnionPay 62, 81 (16–19), RuPay 82 (16), Maestro 50, 56–69 (12–19), UATP 1 (15), GPN 1946 (16, 18, 19), UzCard 8600, Humo 9860, Troy 9792, BelCard 9112, ArCa 9051, Elcart 9417, Korti Milli 9762 (16)); a registry’s word right before it (ОГРН, ОГРНИП, ИНН, КПП, БИК, р/с, счёт, OGRN, INN…: REGISTRY_WORD) or a name of one (payeeOgrn, inn, kpp, bic: REGISTRY_NAME_WORDS in contract/records.ts) makes it none only when it is that registry’s number: of the registry’s length (REGISTRY_LENGTHS in contract/records.ts: INN 10 or 12, KPP and BIC 9, OGRN 13, OGRNIP 15, SNILS 11, OKPO 8, 10 or 14, OKTMO 8 or 11, an account (р/с, к/с, л/с, счёт, PersonalAcc, CorrespAcc) 20, KBK 20, UIN 20 or 25; `ИНН/КПП 7707083893/770701001` by each group) and, where the registry has a check of its own, passing it (registryNumber in contract/records.ts: an OGRN’s sign 1 or 5, year 02–39 and check digit, the first 12 digits modulo 11 modulo 10; an OGRNIP’s sign 3, year 04–39 and check digit, the first 14 modulo 13 modulo 10; an INN’s two checksums; an OKPO’s control number by the classifiers’ method), so a card of another length after such a word or under such a name is masked (`Списано со счёта 4276…` of 16 digits; outside read r18-data, finding 7), and so is a card of the registry’s length that fails the registry’s check (a 13-digit Visa after ОГРН, whose sign 4 no OGRN has; an American Express number after ОГРНИП, whose year 34 or 37 would be 2040 or later; issue 50, fixer dfix23); a number that passes both the registry’s check and a card’s is the registry’s (an OGRN of 2002–2009 starting 50 that also passes the card checksum, after ОГРН), and the registries without a check go by length, as no card has their lengths; after a card word (card, PAN, карта, номер карты, with only naming words between) or under a name with a card’s word (cardHint, cardRef) any checksum run is a card; in an ST00012 payment code the fields of a registry’s or an account’s number (PersonalAcc, CorrespAcc, BIC, PayeeINN, KPP, OGRN…) keep digits of their registry’s length, the code’s own numbers whose length the standard leaves free (Contract, DocNo, Sum…: QR_NUMBER_FIELDS) keep theirs, the payer’s account at the payee (PersAcc) keeps any number but a scheme’s card that passes the checksum (issue 50, fixer dfix23), and a card in its purpose is masked. A card number sent as a JSON number is read as the same digits in a text, from 13 digits on (a 13-digit Visa, a 14-digit Diners Club: gate/fields.ts maskNumber). Magnetic stripe data is hidden whole, its expiry, service code and discretionary data with the card number: under a track’s name (track1, track2, track_2_data, trackData, track2Equivalent, magStripe; hasTrack2 is a state) and in a text (`;PAN=YYMM…?`, `PANDYYMM…`, `PAN=YYMM…` and `%BPAN^NAME^YYMM…?` with a card number passing the checksum and a month 01–12: TRACK_DATA in gate/patterns.ts). An OGRN of 2000–2009 starting 50 written alone in a text with no word naming it reads as a Maestro number and is masked (outside read r17-data, finding 4)',
	},
	bigNumbers: {
		question:
			'Whether IDs are text or JSON numbers, and numbers a double cannot hold (a 19-digit ID)',
		node: 'Read to the digit: identifiers as text, a number no double holds as its written digits, never rounded (transport/json.ts); the reader notes which identifiers were JSON numbers (writtenAsNumber). A money record’s `id` (the document types it text) is taken as a text holding a printable ASCII character (U+0021–U+007E) and no control character, or a whole number of digits; a fraction, a sign, a decimal point, an exponent, true/false, an object, a list, an empty text, a text of invisible or other non-ASCII characters only (U+200B, U+3164, U+034F, U+FE0F, U+2800) or one holding a control character is no ID: the write is unknown with its sentWrite, never paid naming it, and Resolve Outcome gives that record to no write (money/recordId.ts)',
	},
	numbersForText: {
		question: 'A requisite or an externalId sent as a JSON number where text is usual',
		node: 'A requisite masked by its record’s requisiteType whatever its JSON type; an identifier as text (gate/fields.ts, transport/json.ts)',
	},
	newKeyField: {
		question:
			'Under which field the answers of Login, Regenerate API Key and Invite Accept put the new key',
		node: 'The first of NEW_API_KEY_FIELDS holding a text, nearest the top, also nested or as its `value`; only it is opened, none when no such field (company/fields.ts)',
	},
	profileCompanyId: {
		question:
			'Which field of GET /auth/company/profile names the company (the poll trigger’s state across a new credential of the same company)',
		node: '`companyId`, else `company.id`, else `id`, kept as a digest with the Base URL: the same ID carries the state to a new credential, another ID or Base URL is a new baseline, no ID keeps the state so nothing is lost (CompanyPaymentsPollTrigger/poll.ts)',
	},
	closedNesting: {
		question:
			'What a declared field of a member, an invite or the company profile may hold (an object?), and whether the service uses names the node gives its own fields',
		node: 'A declared field keeps its shape (a value or a list of values) or is masked; only the package fields an operation adds pass (gate/fields.ts, CLOSED_PACKAGE_FIELDS)',
	},
	textSecrets: {
		question:
			'How the service’s free text (a body that is not JSON, a message, a comment) may write a PIN, a CVV, a key or a card number',
		node: "Masked by their look wherever such text reaches the user or the model: `PIN: …`, `pin=…`, `card PIN …`, `CVV2: …`, a PIN or CVV word (PIN, ПИН, PIN-код, CVV/CVC, security code) then the value it names: a group of 4–8 digits (a CVV’s 3–8) within 40 characters with only words that name it between (`is`, `number`, `of your card`, `вашей карты`…) and no unit after (issue 50: a status code, request ID, amount, count, date or order number after such a word stays as written), or after a phrase of the same sentence that may name the card by its last four (`PIN for your card ending 1234 is 4829`, `CVV for card •••• 1234: 739`) and ends in is, was, `:` or `=` before the digits, the last four kept and a word of another number in the phrase (status, request, order, attempts…: OTHER_NUMBER_WORDS) stopping it (outside read r16-data), a PIN after its word and a number sign when a word that names no other number follows (`Новый PIN #4821 отправлен`; `PIN #4821: 3 attempts` and `CVV #123` stay), `PIN no. 4821`, a PIN in pairs (`PIN: 48 21`), `CV2`, `ccv`, a space or colon between the word and the value also as an HTML entity or URL-encoded (`CVV&nbsp;583`, `cvv%3A583`) (outside read r17-data, finding 2), `api_key=…`, `member key …`, a key, token, secret or password word (also ключ, токен, пароль, секрет) then a value of 8 characters or more with a digit within a few words, unless the word right before the value names another thing (`request id`, `order`, `status`, `at`, `заказ`…; issue 50; a record’s number: `заявка ZX-2026-0001`, `ticket INC0012345`, `case`, `обращение`, `invoice`, `счёт`…; outside read r18-data, finding 3), and not a key that is no credential: an Idempotency-Key, a public key, a deduplication, sort or cache key (`Idempotency-Key: pay-…`, `ключ идемпотентности …`, `public key …`; outside read r17-data, finding 6) (not a token contract’s public address after token or токен: TRON `T…` of 34, EVM `0x` and 40 hex digits; outside read r15-data, finding 4; nor a token’s name, a ticker or a chain’s standard: `USDT-TRC20`, `TRC20`, `USDT_ERC20`; r18-data, finding 3; also after the bare word token and `:` or `=`: `token: USDT-TRC20`, `token=TRX`; r19-data, finding 14), nor a project’s, a policy’s or a user’s name after such a word (`Top secret project Apollo2024`, `password policy v2024.11`, `…перевыпущен пользователем admin2024`; r19-data, finding 14), `…_live_…`, a prefixed random key (`sk_…`, `rk_…`, `mk_…`, `mbr_…`: a short prefix, then 16 characters or more mixing upper case, lower case and digits), but an ID whose prefix names a record (`pi_`, `pm_`, `py_`, `ch_`, `re_`, `in_`, `evt_`, `cus_`, `txn_`, `ord_`, `req_`, `po_`, `acct_`, `sub_`, `prod_`, `price_`: RECORD_ID in gate/patterns.ts) keeps every character, as an identifier does, while its client secret (`pi_…_secret_…`) is hidden (outside read r19-data, finding 14: identifiers keep every digit, and a record’s ID is no key), `Bearer …` (not a challenge’s parameter: `Bearer realm=\"api\"` stays; r17-data, finding 6), `whsec_…` (and the credential’s webhook secret, or one the node rotated, by its 48 hex characters without the prefix: r17-data, finding 5), card numbers (of a card scheme’s length and leading digits where no card word names them: choice cardSchemes; 13–19 digits passing the card checksum with any short separator, one separator character all along, also `|`, `,`, `;`, `*`, `~`, an apostrophe, `•`, `·`, a line break or brackets; and a run of 13–19 digits passing the checksum whatever stands around it: `#4111…`, `card4111…`, `card_4111…`, `4111…RUB`; part of one, 12–19 digits in one run, only after card, PAN, карта or номер with only naming words between, so `card declined, request id 1234…` stays; part of one written in groups (`4276 3800 1234 567`) when cut short by a mark, after a card word, or shorter than the numbers its scheme issues, while a grouped number that goes on past 19 digits, follows a phone’s country code or an IBAN’s head (`+49 `, `DE89 `), lies in an IBAN passing its check digits, has no scheme’s leading digits, or has a scheme’s full length and fails the checksum is ordinary data and kept (`IBAN DE89 3704 0044 0532 0130 00`, `+49 1512 3456 7890`, `р/с 4070 2810 9380 0000 0001`, `Order 4111 1111 1111 1112`; outside read r19-data, finding 6: gate/patterns.ts ordinaryGroups); not a run glued to letters on both sides inside one long word of letters and digits only (IDENTIFIER_WORD characters or more), an identifier such as an SBP operation’s `A41561222316145C0000050011400501`: outside read r15-data, finding 6, the narrowest rule that keeps r12-data finding 2); a quote cut to QUOTE_LIMIT characters is masked whole first and never ends inside a word or digit groups (gate/patterns.ts, gate/quote.ts). A text is read as written and also decoded (percent-escapes, `+` in a form, numeric and named HTML entities, HTML tags as separators: `Your%20PIN%20is%204829`, `PIN&#32;4829`, `PIN: <b>4829</b>`) and plain (invisible characters dropped, dashes read plain, every Unicode decimal digit read as its value, the Mathematical and other astral digits too: outside read r19-data, finding 7); only the written characters of what is found are hidden, every other character comes out as sent (`PIN%20••••`, a dash, a full-width digit beside it stay; outside read r18-data, findings 1, 2, 4: gate/patterns.ts maskReadingPlain). Also (outside read r19-data): a card number followed by a comma or a point and digits (`2200…5671,12/27,123`, `[…,123]`, `card ….5`) is a card and what follows it the next field, not a decimal’s part (a run of 13–19 digits that passes the checksum and is a scheme’s, or named a card, is no amount’s whole part; a decimal’s fraction is still none: CARD_END); a CVV or PIN on the line after its label with only words on the label’s line (`CVV\\n123`, `Your PIN\\r\\n4821`), not a column’s header nor digits that go on as a number, a date or a quantity (SECRET_DIGITS_NEXT_LINE); PIN and CVV words in full-width, ligature, mathematical or letterlike letters read by their NFKC letters, one letter at a time, only these blocks (`ＰＩＮ: 4821`, `ＣＶＣ２`: compatLetter); PIN and CVV words of Ukrainian (ПІН, ПІН-код, код безпеки), German (Geheimzahl, Geheimnummer, Kartenprüfnummer, Sicherheitscode), Spanish (número secreto, clave secreta, código de seguridad), French (code confidentiel, code secret, cryptogramme visuel, code de sécurité) and Chinese (密码, 安全码), with the same rules as the English and Russian words and those languages’ linking words (ist, lautet, es, est, votre…) and currencies (грн, UAH, EUR…) as units (OTHER_PIN_WORDS, OTHER_CVV_WORDS, CJK_SECRET_DIGITS); a multipart/form-data part or a CSV column (a header row, then rows of as many cells; `;`, `,`, tab or `|`) named a PIN or CVV (pin, pin_code, cardPin, cvv, cvc2, security_code; not pin_tries, pinpad_id, cid) has its 3–8 digits hidden, every other cell as sent (PIN_OR_CVV_NAME, maskNamedContainers); the CVV or PIN of the same answer after a list’s comma (after a masked card’s last four, a card number or a month/year: `•••• 5671,321`, `12/27,321`) is hidden, after a plain number the comma stays a decimal’s (`12,321`: gate/learned.ts AFTER_LIST_COMMA). Also (outside read r20-data, findings 1, 2, 4): an Indian postal code is ordinary data and kept exact (`Deliver to: 12 MG Road, Bengaluru, PIN code 560001`) when the word is `PIN`, `PIN code`, `Pincode`, `PIN code no.` or `PIN number` alone, only signs stand between it and the value (`: `, ` - `, `#`), the value is six digits, the first no zero, an address’s word stands near it (ADDRESS_BEFORE characters before the word, ADDRESS_AFTER after the value: address, deliver, ship, billing, road, street, nagar, city, India, адрес…: ADDRESS_WORD), no card’s word stands there (card, ATM, debit, credit, UPI, CVV, OTP, MPIN, карта: CARD_CONTEXT_WORD) and no word that makes the PIN a secret right before it (your, new, enter, reset, bank…: SECRET_PIN_BEFORE); and in a CSV whose header has a `pin`, `pincode` or `pin_code` column beside an address’s column (city, address, district, state…) and no card’s column (card, cvv, expiry, PAN…), that column’s six-digit cells; any other value after a PIN word stays masked (`Card PIN: 560001`, `PIN code 560001` with no address, `PIN: 4821` in an address; gate/patterns.ts postalPin, postalColumn). Also read as PIN and CVV words: `PIN-Nummer`, `PIN-Nr.`, `NIP` (upper case or `Nip`; `nip` is an English word, and a Polish NIP of ten digits is longer than a PIN), `código de verificación`, `code de vérification`, `卡验证码` and `信用卡验证码` (not `验证码` alone, an SMS code), and traditional `密碼`, `安全碼`, `卡驗證碼`; a number sign glued to the word (`CVV#123`, `PIN#4821`; `CVV #123` after a space stays another number’s); a label’s value up to two blank lines below it (`PIN\n\n1234`; three and more part them); a multipart part named without quotes or in single quotes (`name=cvv`, `name='pin'`). Also units after the digits: `р.`, `шт.`, `штук`, `pcs`, `pieces`, `units`, `unidades`, `Stück`, `Stk`, `pièces`, `元`, `年`, `个`, `张`, `件`, `次`, and `г.` or `года` after a year 19xx or 20xx only (`ПИН 4821 г. Москва` stays masked). Also (outside read r22-data, findings 4–10): a CJK unit (年 元 円 个 個 张 張 件 次) is one only where no Han ideograph follows it (after spaces or none), but one saying the quantity goes on (后 前 内 以 起 至 到 的 月 多 整 间 之: `3 个月`, `3 次后`), and `年` after a year 19xx or 20xx whatever follows (`2025年到期`): `新密码：4821 次日生效`, `卡验证码 739 个人专用`, `482193 年底前有效` are masked (the next day, personal, the year’s end), `密码错误 3 次，`, `2026 年`, `300元。` stay (gate/patterns.ts QUANTITY_GOES_ON); the postal exception takes the English spellings only (`PIN`, `PIN code`, `PIN-code`, `Pincode`, `PIN code no.`, `PIN number`, and a CSV column so named: POSTAL_PIN_WRITTEN), so `PIN-код 482193` beside `Адрес доставки` is a card’s PIN; a value after a password, token, secret or API-key word runs to white space, the end of its quotes, or a `&` or `;` that starts the next `name=value` pair (`password: 4Gh*7Jk&9Lm`, `token: Ab12/Cd34+Ef56==` hidden whole: `&`, `+`, `/` and `=` padding are the value’s; `password=abc&user=bob` keeps `user=bob`), in a link’s query a value ends only at a `&` that starts the next `name=` pair, and a text is read decoded after it was masked as written, so what the written form hid stays hidden whole (a `+` read as a space does not cut it); a multipart part is masked by its name as a name/value pair is (gate/pairs.ts namedSecret: a bracketed or dotted path’s last part decides, `payment[card][cvv]` and `card[pin]` lose their digits, `password`, `api_key`, `X-API-Key` their value, `[hidden]`, while `ok` or `false` stay), also named in RFC 5987’s form (`name*=UTF-8''cvv`); every PIN and CVV word read takes the glued number sign (`NIP#4821`, `PIN-Nummer#4821`, `Geheimzahl#4821`, `新密码#4821`, `卡验证码#739`, also the full-width `＃`); and three blank lines part any PIN or CVV word from its digits, also after `:`, `=` or `is` (`PIN:\n\n\n\n4821` stays as written)",
	},
	maskedPanForm: {
		question: 'How the service masks a card’s `maskedPan` (the document: “masked number”)',
		node: 'Kept as sent when it shows no more digits than a masked card number does (the first six and the last four); a value showing more (a full number, as text or a JSON number) keeps its last four only (gate/fields.ts maskMaskedNumber)',
	},
	identifierNames: {
		question:
			'Identifiers in fields the document does not show (`orderNumber`, `sbpOperationNumber`, `orderUid`, `guid`), 15–19 digits that may pass the card checksum',
		node: 'Decided by the name first: `*Id`, `*Uuid`, `*Uid`, `*Guid`, `*Ref`, `*Hash` and a number naming a record (`orderNumber`, `*_no`, `*Num`) are identifiers, kept exact whatever their digits; a card, phone or account number (NOT_ID_NUMBER_WORDS) and any other unknown name is searched for card numbers (contract/records.ts unknownFieldKind)',
	},
	timeNumbers: {
		question:
			'Times and counts in fields the document does not show (`createdAtUs`, `confirmedAtNs`, `ledgerSeq`): 15–19 digits, as a JSON number or text, that may pass the card checksum',
		node: 'Decided by the name, then the value: a time’s name (`*At`, `*Time`, `timestamp`, `*Ts`, `*Date`, and those with a unit: `createdAtUs`, `eventTimeNs`) or a count’s (`*Seq`, `*Count`, `nonce`, `*Height`, `*Version`, `*Index`, `*Offset`) that has no word of a card or its number (card, pan, requisite, iban: `panSeq`, `lastCardTs`, `cardNumberUpdatedAt` are unknown names, searched for card numbers) keeps a plain number (a JSON number or a text of digits only) exactly whatever its JSON type: under a count’s name any, under a time’s name one of 13 digits or more only when it reads as a time from 2000-01-01 to 2038-01-19 in s, ms, µs or ns (whatever unit the name says) (a card number read so is later: a Visa’s by decades, a Mir’s 2200… or a Mastercard’s 2221… from 2039); digits written in groups (`4000 0012 3456 7113`) or a plain number outside that range are searched for card numbers as an unknown field’s; a text time (`2026-11-21T12:00:00Z`) stays. A card number is still masked where a card can stand (a declared card requisite, a card’s or an unknown name, free text): timeOrCountName (contract/records.ts), plausibleTime (gate/fields.ts)',
	},
	depositToken: {
		question:
			'Whether a deposit or a wallet answer (GET /wallets, a user wallet) carries a `token`, under which name, and what it holds (a code such as `USDT`, or the token contract’s address)',
		node: 'In a deposit or a wallet (a record with `txHash`, `depositId`, `walletAddress`, `fromAddress`, `sweepTxHash` or `tokenSymbol`, a `deposit.*` event, or an `address`, `depositAddress`, `from` or `to` that is a TRON or EVM address or stands beside `network`, `chain`, `standard` or `hash`), `token`, `tokenContract` and `contractAddress` are the crypto token whatever their shape: shown as they are, never learned as a secret, spared by the text patterns (the raw body stays exact), and a payment link’s `?token=` holding that same token is kept; a login’s session token and an invite’s `token` (no address beside them) stay secrets (contract/records.ts fieldSpecIn, knownCryptoToken)',
	},
	requisiteShape: {
		question:
			'The JSON shape of a payout’s `requisite` (text, a number, a list, an object, a number with the bank’s name beside it) and the spelling of its `requisiteType`',
		node: 'Masked by what it holds whatever its shape and type: a `requisiteType` with the word card in any case (`CARD`, `bank_card`) masks every string or number leaf with a digit to its last four (gate/fields.ts maskCardLeaves); under any other type or none, card-like digits anywhere in it (16–19 digits, or 13–15 passing the card checksum: `4111… Сбербанк`) keep their last four and a phone is kept for the user (gate/requisite.ts), also the phone a Payout → Create sent: only a card requisite the run sends is learned as a secret of the run (outside read r15-data, finding 3)',
	},
	keyNames: {
		question:
			'Names of secret fields the document does not show (`memberKey`, `sessionKey`, `hmacKey`, `signingKey`), at any depth',
		node: 'Read by the name’s words (camelCase, snake_case): a name ending in key or keys with a credential’s word before it (CREDENTIAL_KEY_WORDS: api, secret, private, access, signing, auth, hmac, session, member, user…) is a secret; one with a record’s or a lookup’s word and no credential’s (RECORD_KEY_WORDS, NON_SECRET_KEY_WORDS: order, period, payment, invoice, reference, status, type, category, idempotency, sort…: `orderKey`, `periodKey`) is none, shown as sent (outside read r16-data, finding 8); a bare `key` or any other `…Key` (`widgetKey`) is key-ish: masked, but a code, a date, a time or a record’s ID under it is shown (choice learnedSecretFloor); `…secrets` a secret; lower-case prefixed keys (`uk_…`, `sess_…`) in text too (contract/records.ts unknownFieldKind, gate/patterns.ts)',
	},
	secretCounters: {
		question:
			'Fields the document does not show that count or flag something about a PIN, a CVV, a card number or a key (`pinTriesLeft`, `remainingPinAttempts`, `failedPinAttempts`, `pinRetries`, `pinSet`)',
		node: 'One rule by the name’s words for every secret’s name: a counting or flagging word anywhere (COUNTER_WORDS: tries, attempts, retries, left, remaining, failed, count, max, limit, locked, blocked, length, status, enabled…) or a describing last word (ABOUT_WORDS: set, type, at, changed, checked, rotated, valid…) or a flag’s first word (has, is: `hasPin`, `hasWebhookSecret`) makes the field say something about the secret, not hold it: a state, shown as sent to the user and the model; so does a word anywhere that says what kind of secret is wanted or how (in the same COUNTER_WORDS list: policy, strength, rules, format, type, mode, requirements, complexity, level, method…: `pinPolicy`, `cvvPolicy`, `passwordStrength`; outside read r17-data, finding 3); only a name of the value itself is the secret (`pin`, `cardPin`, `pinCode`, `newPin`, `pinValue`, `cvv2`, `apiKey`). Words are read in any case and also glued in one case: a lower-cased word made wholly of secret and describing words (and a number) is read as those words (`pincode`, `PINCODE`, `cardpin`, `cvvcode`, `pin2`, `pinpolicy`), a word with anything else stays whole (`shipping`, `pinned`, `spinner`, `opinion`); PIN words pin, tpin; CVV words cvv, cvc, csc, cvn, cvd, cv2, ccv; a code a person types (`cardCode`, `secCode`, `smsCode`, `authCode`, `activationCode`, `threeDsCode`: SECRET_CODE_WORDS before a last code; `errorCode`, `bankCode` are none); `pwd`, `seed`, `walletSeed`, `recoveryPhrase`; a PIN named in Russian (`пин`, `ПИН-код`); a private key glued (`privkey`, `PRIVKEY`, `privatekey`: priv and private among the glued words); the short names pk, sk, sid and priv hold a secret when their value is long key material (32 hex digits or more, or 24 characters or more of base64 or letters and digits with a digit: keyMaterial), anything else under them is shown (`sid: "S1"`, `pk: 42`); under a secret’s name a word of how it stands (ok, valid, invalid, true, false, none, null, yes, no, verified, failed, expired, revoked…: STATUS_VALUES) is shown (`signature: "ok"`), and so is a part of at most 4 characters under a name ending in Prefix or Mask (`apiKeyPrefix: "ak"`, as `apiKeyLast4` and `keyHint` are shown by their describing last word); long material under any of them stays hidden and nothing shown is learned as a secret (outside read r16-data, finding 1; r17-data, finding 1; r18-data, findings 5 and 6; contract/records.ts unknownFieldKind, secretReadWords, secretValueShown)',
	},
	pairNames: {
		question:
			'How the service may send a secret as a name/value pair (`[{"kind":"PIN","value":"5930"}]`, `{"attribute":"cvv","value":"812"}`, `["cardPin","7390"]`)',
		node: "One list of a pair’s name keys wherever a pair is read (PAIR_NAME_KEYS: name, key, field, label, type, id, kind, attribute, attr, param, parameter, property, prop, code, title, header, option, setting, variable, slug…) and of its value keys (PAIR_VALUE_KEYS: value, val, data, text, content): a name that is a secret field’s makes the value that secret, masked by its form for the user and the model and learned as one; the name itself (`cvv`, `PIN`) is kept as a name (outside read r16-data, finding 9; gate/learned.ts secretPair, gate/fields.ts). Members are matched without case and separators (propertyName, property_name, PropertyName; AttemptedValue, RawValue, Value; Go Fiber’s FailedField), a value member holding an object or list has every scalar masked, Symfony’s `parameters` map is read by its `{{ value }}` key, bracket-quoted paths (`$['card']['cvv']`, `.card['pin']`) are paths and a pydantic v2 loc’s trailing validator tags (`function-after[…]`, `constrained-str`) are skipped; a list of two naming one field twice (Spring’s `codes`) is no pair, and a `key` holding a field’s name beside a message, or beside a label or path naming the same field (Joi’s context.key), is a name, not a key (outside read r22-data, findings 1–3; gate/pairs.ts memberName, keyNamesField)",
	},
	learnedSecretFloor: {
		question:
			'What a field named like a secret may hold that cannot be one (a date, a unix time, the record’s own UUID), and whether a later run of the same credential keeps hiding it',
		node: 'A date or time text, a number of 9 digits or more that reads as a time from 2000 to 2038 in s, ms, µs or ns, and a UUID the same answer or the run names as an identifier are never learned as secrets (one odd field cannot hide the dates and IDs of this or any later run); under a key-ish name (`key`, `widgetKey`) such a value is shown as sent; under a credential’s name it stays masked there (outside read r16-data, finding 8; gate/masks.ts notSecretMaterial, gate/learned.ts)',
	},
	linkSecrets: {
		question: 'Whether a link the service sends carries a card number or a CVV or PIN',
		node: 'A card number in a link’s path or query keeps its last four; a cvv, cvc, pin or pan query value is hidden (gate/patterns.ts maskLink)',
	},
	fieldCollision: {
		question:
			'Whether an event body carries fields named like the trigger’s own (`deliveryId`, `source`, `receivedAt`, `changeKey`)',
		node: 'The trigger’s own fields, and the fields the action node adds (fundsReturned, existingDispute, quote), keep their names and meaning; the service’s values are kept under `serviceFields`, added only when the body had any (CompanyPaymentsTrigger/receive.ts, shared/serviceFields.ts)',
	},
	escapedSecrets: {
		question: 'How the service quotes a value inside error details (JSON escaping: \\/, \\u002f)',
		node: 'A known secret found whole in every form a JSON encoder writes (gate/learned.ts)',
	},
	recordEnvelope: {
		question:
			'Whether an answer of one record comes wrapped (`{"data":{…}}`): the card’s sensitive data, the rotated webhook secret',
		node: 'The field an operation opens (the card’s number and CVV, the new webhook secret, the new API key) is found by its name nearest the top, also inside an envelope, and opened where it stands: fieldPath (contract/recordsAnswer.ts); in a closed record an object under `data` is that record again (RECORD_ENVELOPE_KEYS, contract/records.ts). Mask Card Number and CVV off with no such field is masked:true with a notice, never masked:false (outside read r16-data, findings 3 and 4)',
	},
	valueAnswer: {
		question:
			'Whether an answer whose fields are not shown may be a bare JSON value (GET /wallets the address as text, a block answered true, a list of IDs), and how the rotation answers',
		node: 'Any answer or list entry that is no record (text, number, true/false, null) comes out as `{ "value": … }` as sent, for every operation: asRecord (contract/recordsAnswer.ts, SCALAR_ANSWER_KEY), read in recordsOf (items.ts) and the pager; a rotation answered by a bare text of the form whsec_ and 48 hex characters is the new secret, one with no webhookSecret (ROTATED_SECRET_FIELDS) an error saying the secret was rotated and could not be shown (company/rotateWebhookSecret.operation.ts; outside read r16-data, findings 4 to 6)',
	},
	payoutListing: {
		question: 'Which fields the payout listing (GET /payouts) shows',
		node: 'A detail a found record does not show is read by GET /payouts/{id}, else no evidence (shared/money/evidence.ts)',
	},
	inviteAnswer: {
		question:
			'How POST /members/invites answers: the invite itself, or wrapped under a key (`{"invite":{…}}`)',
		node: 'An answer of one key `invite` holding an object is that invite, unwrapped: `url` first, its fields by the invite’s record; any other answer is the invite as it stands (invite/create.operation.ts unwrapInvite, outside read r15-data, finding 8)',
	},
	payoutRequisite: {
		question: 'Whether a payout shows its requisite in full or masked',
		node: 'In full: by the sent write’s keyed digest of the whole number; masked: by the digits it shows, a weaker match (shared/money/sentEvidence.ts)',
	},
	closedCardStatus: {
		question: 'Whether a card closed for good is `closed` or legacy `retired`',
		node: 'Both, one status (statuses.ts)',
	},
	userDepositStatuses: {
		question: 'Current or legacy user-wallet deposit AML statuses',
		node: 'Both, one status (statuses.ts)',
	},
	redirect: {
		question: 'Whether the service redirects',
		node: 'Never followed: an error naming the status and Location (request.ts)',
	},
	rateLimit: {
		question: 'Rate limits and Retry-After',
		node: 'Reads and Accept Quote / Pay QR Code repeated (RETRY_STATUSES, RETRY_BACKOFF, the credential’s longest wait: retry.ts); any other money write never: the service’s own 429 with a code the document lists as a refusal or a rate-limit code (TOO_MANY_REQUESTS, RATE_LIMITED: RATE_LIMIT_CODES, none is shown) is not_paid with retryAfter; a 429 with any other code is unknown (money/write.ts, money/answered.ts)',
	},
	proxy502: {
		question: 'A proxy’s 502 before or after the service acted',
		node: 'Reads and replayed writes sent again; other writes unknown: replayByKey of each money contract',
	},
	lostAnswer: {
		question: 'A write processed and its answer lost; replay by key not promised',
		node: 'paymentOutcome unknown, never sent again: NOT_PAID_STATUSES, money/write.ts',
	},
	errorAfterActing: {
		question:
			'Which error answers of a money write come before the service acts, and which may come after it acted (the status of most codes is not shown; new codes may be added)',
		node: 'not_paid only for the service’s own error body whose code the document lists as a condition checked before acting (REFUSAL_CODES: input, key, permission, not found, balance, limits, cooldown, working hours, not enabled, quote expired or not found …) at a plain 4xx, and for the service’s 429 with a rate-limit code (choice rateLimit); unknown with its sentWrite, never sent again: a backend or transient code at any status (ACTED_MAYBE_CODES: BRIDGE_ERROR, WALLET_BACKEND_ERROR, PAYOUT_SERVICE_UNAVAILABLE, PAYOUT_SERVICE_REJECTED, DRIVER_HELPER_TRANSIENT, INTERNAL_ERROR, SERVICE_UNAVAILABLE, BAD_GATEWAY, QR_RESOLVE_FAILED …), the statuses that say no refusal, whatever the code (408, 423, 424, 425, 499), every 5xx, a 409 but CARD_EXTERNAL_ID_TAKEN and PAYOUT_NOT_CANCELABLE, the documented codes that name no condition (CONFLICT, UNPROCESSABLE), and every code the document does not list, whatever its name (DEADLINE_EXCEEDED, PAYOUT_TIME_OUT, DOWNSTREAM_ERROR, SOMETHING_NEW …): the document makes it a generic failure of its status, which does not say the service had not acted (money/answered.ts)',
	},
	unlistedCode: {
		question:
			'How a money write is answered with a 4xx whose code the document does not list (a 418, or a 400, 409, 410, 422 or 451 with a code of its own), after the service acted or before (new codes may be added; an unknown one is a generic failure of its status)',
		node: 'unknown with its sentWrite, never not_paid, never sent again under its key by Retry On Fail or a second call in the same n8n process (an accept only as the same request, its one quote): not a code REFUSAL_CODES lists, so answerClass reads it unsure (money/answered.ts; choice errorAfterActing). The sandbox plays it in generated mode (lib/generatedMoney.mjs UNLISTED_4XX)',
	},
	answerShape: {
		question:
			'What a carried-out Card Recharge or Card Request answers in its 2xx body (the document shows no failure in a 2xx, nor these shapes, nor that they cannot come): the record as made, with success:false, a recharge in a quote’s shape (no id, status or createdAt), or a card that is not the request’s (another External ID, or not the card request.cardId names)',
		node: 'A success only for the record as made and tied to this write; success:false, ok:false, errors, error or failReason (also in the records the contract names), a quote-shaped recharge, and a card not tied to its request (contract ties, binding.ts brokenTies) are unknown with sentWrite, never not_paid (money/outcome.ts answerSaysFailed)',
	},
	reusedKey: {
		question: 'What the service does with a key used before for another request',
		node: 'A refusal naming the key (IDEMPOTENCY…) is unknown, never not_paid: refusesReusedKey (money/outcome.ts)',
	},
	listingLag: {
		question: 'How long a new payout or card stays out of its listing',
		node: 'Absence proves nothing; the tool refuses the reference until lookAgainAt after an unknown (money/pending.ts)',
	},
	listingShows: {
		question: 'Which fields GET /payouts shows (externalId, amountRub)',
		node: 'A record whose listing leaves a detail out is read by its ID: recordsCarrying (money/reference.ts)',
	},
	clockSkew: {
		question: 'How far the service clock is from n8n’s',
		node: 'Measured by the writer: the Date header of the service’s own answers (an HTTP date in GMT) as an interval, Date − when the answer was read to Date + 1 s − when the request was sent (a slow answer only widens it), its upper bound for “created after the write”, its lower bound for “now”; raised (never lowered) to a 200 record’s createdAt against its send, sealed in the writer’s clock; Resolve adds its own reads’ only in the writer’s process; plus SKEW_MARGIN_MS; a record dated later than the service clock now is no proof (money/clock.ts, money/binding.ts)',
	},
	statesReturn: {
		question: 'Whether a refunded payout is charged again',
		node: 'A failed payout is unknown, never not_paid; failed and refunded is paid with fundsReturned, the recharge left to payout.recharged (money/resolve.ts)',
	},
	earlierRecords: {
		question: 'Whether an External ID is unique among payouts',
		node: 'A record created before the write was sent (as far as the measured clocks tell) proves nothing of it: createdSince (money/binding.ts); one record proves one write per process and Base URL, whichever credential sent it (money/proofs.ts), and a sent write names the other writes of the same request its process sent (write.ts alongside), so that holds after a restart; later writes are known in the process that sent both (otherWrites), and a record answered 200 is that write’s proof; writes from two processes, or a later write after a restart, remain a named window',
	},
	dateHeader: {
		question: 'Whether the service’s answers carry a Date header (a proxy may strip it)',
		node: 'Without one ever, the time bound is not proven: Resolve Outcome stays unknown naming the Date header (money/resolve.ts); a money write (Payout Create, Card Request, Card Recharge, Pay QR Code under its derived key) answered with a record made before the send by more than UNDATED_PREDATES_MS on n8n’s own clock is unknown (money/write.ts)',
	},
	recordTimes: {
		question: 'Whether record times carry an offset, and in which zone one without it is',
		node: 'One reading for the write’s own answer and for Resolve Outcome (r16-money F2): an ISO 8601 time with Z or an offset (+hh:mm, +hhmm, +hh, PostgreSQL’s “2026-11-28 08:23:55.085+00”), T or a space between date and time, is read (boundTime); one without an offset is shown read as UTC (serviceTime) and proves no write: it may be in any zone, ±14 h; none, or one that is no such time, proves none either. A record (a payout made, a payout a cancel cancelled, by its refundedAt and completedAt) that cannot be bound by its time is unknown, on the write path as in Resolve Outcome: timesAgainst (money/binding.ts)',
	},
	earlierAge: {
		question: 'How close before a write an earlier record under the same External ID can be',
		node: 'Bound by the measured skew and SKEW_MARGIN_MS only; unmeasured is unknown (money/binding.ts)',
	},
	requisiteCooldown: {
		question:
			'When PAYOUT_REQUISITE_COOLDOWN (and other refusals an earlier payout causes) is given',
		node: 'After this item may have been sent before (this process, a key or External ID a re-run carries): unknown, never not_paid: resentRefusals (money/write.ts)',
	},
	resendRefusal: {
		question:
			'Whether a refusal of a repeated key (a 429, INSUFFICIENT_BALANCE) says anything of the first send',
		node: 'Nothing: after an unknown send of the same key in this process it is unknown, and keeps the unknown: refusedAfterUnknown (money/write.ts); the node’s own refusal of another request under that key is unknown too, carrying the first send’s sentWrite, never IDEMPOTENCY_KEY_REUSED not_paid (undecidedKeyError, outside r25-money F3)',
	},
	resendTries: {
		question: 'Whether a new quote accepted under a key used before is a repeated request',
		node: 'Not one: the first quote stays with the key on every try until decided, and runs of one key in this process go one at a time from before the quote is prepared, so a run that starts while another is under way starts from what it left (its quote, its order, its unknown outcome; a fresh quote only after not_paid): onePaymentAtATime (money/claim.ts); another process is warned of: newRequestElsewhere (money/write.ts, order/pay)',
	},
	gatewayDate: {
		question: 'Which clock dates a gateway’s page in place of a lost answer',
		node: 'None the node trusts: a gateway’s page (not the service’s JSON) measures no clock skew: serviceAnswered (money/clock.ts)',
	},
	listingId: {
		question: 'Whether GET /payouts shows each payout’s id',
		node: 'A record without its id cannot be claimed by one write, so it proves none: claimable (money/proofs.ts)',
	},
	payoutAssignedAt: {
		question: 'Whether a payout carries an assignedAt of its own, and what it means',
		node: 'No record is bound by assignedAt: a payout and a card by their createdAt alone; a card created before the write and assigned after it stays unknown, saying why (money/resolve.ts, r5-money F3)',
	},
	earlierZoneShift: {
		question:
			'Whether an earlier payout under the same External ID is one time-zone shift older than a write',
		node: 'Bound only by a time with its offset: one without it is no proof (money/binding.ts boundTime)',
	},
	refundedAtNever: {
		question: 'How a payout not refunded writes refundedAt (null, a zero time, false)',
		node: 'Only a real time not before createdAt is money returned; null, absent or empty is not; anything else is fundsReturned null with fundsReturnedNote (payoutFunds.ts)',
	},
	cachedDate: {
		question:
			'Whether a proxy or cache may stand between n8n and the service, serving a stored copy with the Date of when it was stored',
		node: 'An answer with Age, a cache status saying HIT or STALE, or a Warning measures no clock skew, and a look binds by the largest skew it and the write measured: fromCache, skewRangeSince (money/clock.ts)',
	},
	createRefusal: {
		question:
			'How a payout (or card request) is refused when an earlier one under its External ID or key took the funds or holds the External ID',
		node: 'After the item may have been sent before (a key the user set, an External ID, or this process sent it): INSUFFICIENT_BALANCE and any refusal saying a value is taken are unknown, never not_paid: RESENT_BY_ANY, refusesTaken (money/resent.ts)',
	},
	earlierNear: {
		question:
			'How close before a write an earlier payout under its External ID can be, against a cache’s stale Date',
		node: 'A cache’s copy measures nothing (fromCache) and the largest skew measured binds: such a payout stays unknown (money/clock.ts, money/resolve.ts)',
	},
	refusalWording: {
		question:
			'How the service words a refusal of a taken External ID or key (validation, 422, its own code)',
		node: 'Not matched by words: after a possible earlier attempt, Payout Create’s refusal is not_paid only when no earlier attempt can cause it (401/403, documented refusals of its own values, a validation of another field); any other is unknown with its sentWrite: freshRefusal (money/resent.ts)',
	},
	dateClock: {
		question:
			'Whether the Date header comes from the clock that writes createdAt, or a proxy’s (ahead or behind)',
		node: 'A 200 record’s createdAt against its send only raises the Date skew, never lowers it or stands alone (a replayed or held record is older: r8-money F1), so a proxy behind is caught once such a record was answered; named windows: a proxy behind before any such answer, and a proxy ahead keeps the write unknown; a proxy behind by more than SKEW_MARGIN_MS makes a write’s own answer unknown too, its record dated later than the service clock at the answer, as Resolve reads it (money/clock.ts observeCreated, money/write.ts sealedSkew, money/binding.ts datedLater)',
	},
	replayedPost: {
		question: 'Whether a POST /payouts sent again by a gateway makes a second payout',
		node: 'Resolve Outcome names every record that is this write: matchingPayouts and a warning that money may have moved more than once (money/resolve.ts)',
	},
	writeAnswer: {
		question:
			'What a carried-out money write answers: the recharge’s record (its statuses are not shown), an order failed at once after accept (not shown), a payout failed at once after Create, a Cancel answered with the payout declined just before it, or 202 accepted with no record',
		node: 'A 2xx that is no record (no ID and none of the details asked), or a record whose status does not stand (a recharge not in RECHARGE_STANDING_STATUSES, an order in any status but the document’s created, in_progress and success (failed, expired, disputed, or one the document does not list: cancelled, rejected, refunded …; an order that shows no status is read by its details), a card request failed or cancelled or its card failed, a payout in fail or an unlisted status), is unknown with its sentWrite, never a plain success: notARecord, notStanding (money/outcome.ts); a Cancel answered with the payout is judged by the cancel table: failed for another named reason, taken or made is not_paid (PAYOUT_NOT_CANCELABLE), still waiting or no failReason unknown (payout/cancel.operation.ts)',
	},
	acceptedAnswer: {
		question: 'Whether Payout Create may be answered 2xx without a payout record (202 accepted)',
		node: 'A 2xx to Payout Create with no ID and none of the details asked is unknown with its sentWrite: notARecord (money/outcome.ts)',
	},
	rechargeRecord: {
		question:
			'Whether the record POST /cards/recharge answers with carries its own `id` and `createdAt` (its fields are not shown)',
		node: 'Read as RECHARGE_RECORD_FIELDS when present and bound by the one rule every money write gets from its contract (`made`): a record already answered to another write, or one made before the send, is unknown: answerProvesOther (money/write.ts); a record without an `id` is bound by time only, one without a `createdAt` by its `id` only, one with neither by its details and status alone (a named window: madeUndatedStands), where it shows a status: one with neither an `id` nor a status (a quote’s shape) is unknown (r18-money F3); a `createdAt` shown that cannot be read (no offset, no time) is unknown',
	},
	heldAnswer: {
		question:
			'Whether Payout Create under an External ID a payout already carries (same amount and card) is answered with that payout instead of a new one',
		node: 'The direct answer binds as Resolve Outcome does: a record this process already answered to another write of the same External ID and details (provedOther, money/proofs.ts), or one created before the write was sent by the sealed skew and SKEW_MARGIN_MS, is unknown naming it, never a success: answerProvesOther (money/write.ts); a createdAt without its offset, none, or one that is no time is unknown too (choice `recordTimes`); without a Date header a record is judged by n8n’s own clock and UNDATED_PREDATES_MS, and two processes do not know of each other (named windows)',
	},
	moneyLoss: {
		question: 'A money write’s answer lost before or after the service acted',
		node: 'unknown with a sealed sentWrite; Resolve Outcome decides by the binding rule (money/resolve.ts)',
	},
} as const satisfies Record<string, OpenChoice>;

export type OpenChoiceName = keyof typeof OPEN_CHOICES;
