// Loaded into the n8n process under test with NODE_OPTIONS=--require (bench/profile.mjs).
// SIGUSR2 starts a CPU profile; the next SIGUSR2 stops it and writes it as
// <COMPANY_PAYMENTS_PROFILE_DIR>/<n>.cpuprofile, then touches <n>.done. Nothing else changes in
// the process. Node keeps SIGUSR1 for its own inspector; n8n does not use SIGUSR2.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const inspector = require('node:inspector');

const dir = process.env.COMPANY_PAYMENTS_PROFILE_DIR;
if (dir) {
	const session = new inspector.Session();
	session.connect();
	let running = false;
	let count = 0;
	process.on('SIGUSR2', () => {
		if (!running) {
			running = true;
			session.post('Profiler.enable', () =>
				session.post('Profiler.setSamplingInterval', { interval: 200 }, () =>
					session.post('Profiler.start'),
				),
			);
			return;
		}
		running = false;
		session.post('Profiler.stop', (error, result) => {
			count += 1;
			const file = path.join(dir, `${count}.cpuprofile`);
			if (!error) fs.writeFileSync(file, JSON.stringify(result.profile));
			fs.writeFileSync(path.join(dir, `${count}.done`), error ? String(error) : file);
		});
	});
}
