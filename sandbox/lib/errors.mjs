// The service's error body: statusCode, error, errorCode, message (Russian), details,
// required, path, timestamp, requestId. Every failure in the sandbox is an ApiError.
import { STATUS_CODES } from 'node:http';

/** Default Russian text per errorCode; a thrower may pass a more specific message. */
const MESSAGES = {
	VALIDATION_ERROR: 'Ошибка валидации запроса',
	BAD_REQUEST: 'Некорректный запрос',
	UNAUTHORIZED: 'Требуется авторизация',
	FORBIDDEN: 'Действие запрещено',
	NOT_FOUND: 'Ресурс не найден',
	CONFLICT: 'Конфликт состояния ресурса',
	UNPROCESSABLE: 'Запрос не может быть обработан',
	INTERNAL_ERROR: 'Внутренняя ошибка сервиса',
	SERVICE_UNAVAILABLE: 'Сервис временно недоступен, повторите запрос позже',
	BAD_GATEWAY: 'Ошибка вышестоящего сервиса',
	AUTH_REQUIRED: 'Не передан API-ключ или токен сессии',
	INVALID_API_KEY: 'Недействительный или отозванный API-ключ',
	INVALID_CREDENTIALS: 'Неверный e-mail или пароль',
	SESSION_INVALID: 'Токен сессии недействителен или истёк',
	COMPANY_INACTIVE: 'Компания отключена',
	NO_COMPANY_MEMBERSHIP: 'Пользователь больше не состоит в компании',
	PERMISSION_DENIED: 'Недостаточно прав для выполнения действия',
	ACCOUNT_ALREADY_EXISTS: 'Пользователь с таким e-mail уже существует в компании',
	COMPANY_NOT_FOUND: 'Компания не найдена',
	QR_AMOUNT_MISSING: 'В QR-коде не указана сумма платежа',
	QR_INVALID: 'QR-код не распознан',
	AMOUNT_BELOW_MIN: 'Сумма меньше минимально допустимой',
	AMOUNT_ABOVE_MAX: 'Сумма больше максимально допустимой',
	ST00012_SUM_INVALID: 'Некорректная сумма в платёжном документе ST00012',
	FINE_ALREADY_PAID: 'Штраф уже оплачен',
	FINE_NOT_FOUND: 'Штраф по указанному УИН не найден',
	QUOTE_NOT_FOUND: 'Котировка не найдена',
	QUOTE_EXPIRED: 'Срок действия котировки истёк, запросите новую',
	INSUFFICIENT_BALANCE: 'Недостаточно средств на балансе компании',
	ORDER_NOT_FOUND: 'Заказ не найден',
	IDEMPOTENCY_KEY_REQUIRED: 'Требуется заголовок Idempotency-Key',
	DISPUTE_NOT_FOUND: 'Спор не найден',
	DISPUTE_NOT_ALLOWED: 'Спор можно открыть только по завершённому заказу',
	CARDS_NOT_ENABLED: 'Выпуск карт не подключён для компании',
	CARD_NOT_FOUND: 'Карта не найдена',
	CARD_REQUEST_NOT_FOUND: 'Заявка на карту не найдена',
	CARD_NOT_ACTIVE: 'Карта не активна',
	CARD_RECHARGE_INVALID: 'Некорректная сумма пополнения карты',
	CARD_EXTERNAL_ID_TAKEN: 'Карта с таким externalId уже существует',
	MEMBER_NOT_FOUND: 'Участник не найден',
	CANNOT_CHANGE_OWN_ROLE: 'Нельзя изменить собственную роль',
	ROLE_CHANGE_NOT_ALLOWED: 'Изменять владельца может только владелец',
	INVITE_NOT_FOUND: 'Приглашение не найдено',
	INVITE_USED: 'Приглашение уже использовано',
	INVITE_EXPIRED: 'Срок действия приглашения истёк',
	INVITE_INVALID: 'Приглашение выдано на другой e-mail',
	WEBHOOK_DELIVERY_NOT_FOUND: 'Доставка вебхука не найдена',
	WEBHOOK_URL_NOT_CONFIGURED: 'Не задан адрес для вебхуков',
	PAYOUT_NOT_FOUND: 'Выплата не найдена',
	PAYOUT_REQUISITE_INVALID: 'Некорректные реквизиты получателя',
	PAYOUT_BANK_UNKNOWN: 'Неизвестный банк',
	PAYOUT_BANK_REQUIRED: 'Для выплаты по номеру телефона укажите банк',
	PAYOUT_NOT_CANCELABLE: 'Выплату уже нельзя отменить',
	PAYOUT_DISPUTE_NOT_ALLOWED: 'Спор по выплате в этом статусе невозможен',
	PAYOUT_REQUISITE_COOLDOWN: 'На эти реквизиты недавно была выплата',
};

export class ApiError extends Error {
	/**
	 * @param {number} statusCode
	 * @param {string} errorCode
	 * @param {string | string[]} [message] Russian text; defaults to the code's text
	 * @param {{ details?: object, required?: string, headers?: object }} [extra]
	 */
	constructor(statusCode, errorCode, message, extra = {}) {
		const text = message ?? MESSAGES[errorCode] ?? errorCode;
		super(Array.isArray(text) ? text.join('; ') : text);
		this.statusCode = statusCode;
		this.errorCode = errorCode;
		this.apiMessage = errorCode === 'VALIDATION_ERROR' && !Array.isArray(text) ? [text] : text;
		this.details = extra.details;
		this.required = extra.required;
		this.headers = extra.headers;
	}
}

/** Shorthand used by handlers: `throw apiError(404, 'ORDER_NOT_FOUND')`. */
export function apiError(statusCode, errorCode, message, extra) {
	return new ApiError(statusCode, errorCode, message, extra);
}

/** 400 VALIDATION_ERROR; message is always an array of strings. */
export function validationError(messages, details) {
	return new ApiError(400, 'VALIDATION_ERROR', Array.isArray(messages) ? messages : [messages], {
		details,
	});
}

export function permissionDenied(permission) {
	return new ApiError(
		403,
		'PERMISSION_DENIED',
		`Недостаточно прав: требуется разрешение ${permission}`,
		{ required: permission, details: { required: permission } },
	);
}

/** Builds the JSON error body for a thrown ApiError. */
export function errorBody(err, { path, requestId, timestamp }) {
	const body = {
		statusCode: err.statusCode,
		// PERMISSION_DENIED keeps its legacy reason phrase.
		error:
			err.errorCode === 'PERMISSION_DENIED'
				? 'PERMISSION_DENIED'
				: (STATUS_CODES[err.statusCode] ?? 'Error'),
		errorCode: err.errorCode,
		message: err.apiMessage,
	};
	if (err.details !== undefined) body.details = err.details;
	if (err.required !== undefined) body.required = err.required;
	body.path = path;
	body.timestamp = timestamp;
	body.requestId = requestId;
	return body;
}
