// A minimal path router: `/orders/:id/disputes` style patterns, exact segment counts,
// static segments win over parameters when several patterns fit.

export class Router {
	#routes = [];

	/**
	 * @param {string} method
	 * @param {string} pattern
	 * @param {{ auth?: 'key' | 'public', permission?: string | ((ctx) => string | null) }} options
	 * @param {(ctx) => Promise<{ status?: number, body?: any, headers?: object }> | { status?: number, body?: any }} handler
	 */
	add(method, pattern, options, handler) {
		const segments = pattern.split('/').filter(Boolean);
		const paramCount = segments.filter((s) => s.startsWith(':')).length;
		this.#routes.push({ method, pattern, segments, paramCount, auth: 'key', ...options, handler });
		return this;
	}

	get(pattern, options, handler) {
		return this.add('GET', pattern, options, handler);
	}
	post(pattern, options, handler) {
		return this.add('POST', pattern, options, handler);
	}
	patch(pattern, options, handler) {
		return this.add('PATCH', pattern, options, handler);
	}
	delete(pattern, options, handler) {
		return this.add('DELETE', pattern, options, handler);
	}

	/** @returns {{ route, params } | null} */
	match(method, pathname) {
		let parts;
		try {
			parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
		} catch {
			return null;
		}
		let best = null;
		for (const route of this.#routes) {
			if (route.method !== method || route.segments.length !== parts.length) continue;
			const params = {};
			const fits = route.segments.every((seg, i) => {
				if (seg.startsWith(':')) {
					params[seg.slice(1)] = parts[i];
					return true;
				}
				return seg === parts[i];
			});
			if (fits && (!best || route.paramCount < best.route.paramCount)) best = { route, params };
		}
		return best;
	}

	get routes() {
		return this.#routes.map((r) => ({ method: r.method, pattern: r.pattern, auth: r.auth }));
	}
}
