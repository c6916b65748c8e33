/// The Mini App's page: a shell, a small script and a style, with no framework and no build step.
/// The screens themselves are drawn by the server (``MiniAppEndpoints``) in the chat's language;
/// the shell only knows how to say, in both languages, that it could not get them.
enum MiniAppPage {
    static let html = #"""
        <!doctype html>
        <html lang="ru">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
        <meta name="color-scheme" content="light dark">
        <title>Weather</title>
        <link rel="stylesheet" href="app/app.css">
        <script src="https://telegram.org/js/telegram-web-app.js" defer></script>
        <script src="app/app.js" defer></script>
        </head>
        <body>
        <main aria-live="polite"><p class="loading">…</p></main>
        </body>
        </html>
        """#

    static let style = #"""
        :root {
          --bg: var(--tg-bg-color, #ffffff);
          --text: var(--tg-text-color, #111111);
          --hint: var(--tg-hint-color, #707579);
          --link: var(--tg-link-color, #2481cc);
          --button: var(--tg-button-color, #2481cc);
          --button-text: var(--tg-button-text-color, #ffffff);
          --section: var(--tg-secondary-bg-color, #f1f1f4);
          --danger: var(--tg-destructive-text-color, #d14e4e);
          color-scheme: light dark;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: var(--tg-bg-color, #17212b);
            --text: var(--tg-text-color, #f5f5f5);
            --hint: var(--tg-hint-color, #708499);
            --link: var(--tg-link-color, #6ab3f3);
            --section: var(--tg-secondary-bg-color, #232e3c);
          }
        }
        * { box-sizing: border-box; }
        body { margin: 0; padding: 0 12px 24px; background: var(--bg); color: var(--text);
          font: 15px/1.4 -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
        a { color: var(--link); text-decoration: none; }
        .tabs { position: sticky; top: 0; display: flex; gap: 4px; padding: 8px 0; background: var(--bg); z-index: 1; }
        .tabs a { flex: 1; text-align: center; padding: 6px 4px; border-radius: 8px; background: var(--section); color: var(--text); font-size: 14px; }
        .tabs a[aria-current="page"] { background: var(--button); color: var(--button-text); }
        h1 { font-size: 19px; font-weight: 600; margin: 8px 0; }
        h2 { font-size: 15px; color: var(--hint); font-weight: 600; margin: 18px 0 6px; text-transform: uppercase; letter-spacing: .02em; }
        ul { list-style: none; margin: 0; padding: 0; }
        .card li { padding: 2px 0; }
        .hint, .failure, .loading { color: var(--hint); }
        .failure { color: var(--danger); }
        .hours { display: flex; overflow-x: auto; gap: 6px; padding-bottom: 6px; scroll-snap-type: x proximity; }
        .hour, .day-name { flex: 0 0 auto; display: flex; flex-direction: column; align-items: center; gap: 2px;
          min-width: 64px; padding: 6px; border-radius: 10px; background: var(--section); scroll-snap-align: start; font-size: 13px; }
        .day-name { justify-content: center; text-align: center; color: var(--hint); background: none; min-width: 72px; }
        .hour .sky { font-size: 20px; }
        .days li { padding: 8px 0; border-bottom: 1px solid var(--section); }
        .days small { color: var(--hint); }
        .chart { margin: 0; }
        .chart svg { width: 100%; height: auto; color: var(--button); touch-action: pan-y; background: var(--section); border-radius: 10px; }
        .chart circle { fill: var(--button); stroke: var(--button); stroke-width: 0; opacity: .25; }
        .chart circle.touched { opacity: 1; stroke-width: 4; }
        .readout { min-height: 1.4em; margin-top: 4px; color: var(--text); font-size: 14px; }
        .places li { display: flex; align-items: center; gap: 8px; padding: 10px 0; border-bottom: 1px solid var(--section); }
        .places li a { flex: 1; color: var(--text); }
        .places li.dragging { opacity: .5; }
        .handle { touch-action: none; cursor: grab; color: var(--hint); padding: 4px 8px; user-select: none; }
        .search-form { display: flex; gap: 6px; margin: 8px 0; }
        .search-form input { flex: 1; padding: 8px 10px; border-radius: 8px; border: 1px solid var(--section); background: var(--section); color: var(--text); font: inherit; }
        button { font: inherit; }
        .search-form button, .locate, .star { padding: 8px 12px; border: 0; border-radius: 8px; background: var(--button); color: var(--button-text); cursor: pointer; }
        p.star { background: none; color: var(--text); padding: 0; }
        .message { padding: 10px 0; border-bottom: 1px solid var(--section); }
        .message p { margin: 0 0 8px; }
        .buttons { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0; }
        .buttons button { flex: 1 1 auto; padding: 8px 10px; border: 0; border-radius: 8px; background: var(--section); color: var(--text); cursor: pointer; }
        .buttons button[aria-pressed="true"] { background: var(--button); color: var(--button-text); }
        .typed { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin-top: 8px; }
        .typed input { width: 9em; padding: 8px; border-radius: 8px; border: 1px solid var(--section); background: var(--section); color: var(--text); font: inherit; }
        .typed button { padding: 8px 12px; border: 0; border-radius: 8px; background: var(--button); color: var(--button-text); cursor: pointer; }
        main[aria-busy="true"] { opacity: .6; pointer-events: none; }
        .trouble { margin: 8px 0; }
        .trouble button { padding: 6px 12px; border: 0; border-radius: 8px; background: var(--button); color: var(--button-text); cursor: pointer; }
        .actions { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
        .delete { border: 0; background: none; color: var(--danger); font-size: 18px; padding: 4px 8px; cursor: pointer; }
        """#

    static let script = #"""
        (() => {
          'use strict';
          const telegram = window.Telegram && window.Telegram.WebApp;
          const launch = new URLSearchParams(location.hash.slice(1));
          const initData = (telegram && telegram.initData) || launch.get('tgWebAppData') || '';
          const root = document.documentElement;

          // The theme: Telegram's colours as CSS variables (--tg-bg-color, …), which the style reads.
          let theme = telegram && telegram.themeParams;
          if (!theme || !Object.keys(theme).length) {
            try { theme = JSON.parse(launch.get('tgWebAppThemeParams') || '{}'); } catch (error) { theme = {}; }
          }
          function paint(colours) {
            for (const [key, value] of Object.entries(colours || {})) {
              if (/^#[0-9a-f]{3,8}$/i.test(value)) root.style.setProperty('--tg-' + key.replace(/_/g, '-'), value);
            }
          }
          paint(theme);
          if (telegram) {
            // A drag down the list must move a favorite, not close the app.
            try { telegram.ready(); telegram.expand(); if (telegram.disableVerticalSwipes) telegram.disableVerticalSwipes(); } catch (error) { /* an old client */ }
            try { telegram.onEvent('themeChanged', () => paint(telegram.themeParams)); } catch (error) { /* an old client */ }
          }

          // Until the server answers in the chat's language, the user's own decides the shell's words.
          let code = '';
          try { code = JSON.parse(new URLSearchParams(initData).get('user') || '{}').language_code || ''; } catch (error) { code = ''; }
          const russian = !code || /^(ru|uk|be|kk)\b/i.test(code);
          const words = russian ? {
            unauthorized: 'Не удалось подтвердить, что приложение открыто из Telegram. Закройте его и откройте снова кнопкой бота.',
            offline: 'Нет связи с ботом. Проверьте интернет и попробуйте ещё раз.',
            failed: 'Бот не смог ответить. Попробуйте ещё раз через минуту.',
            tooMany: 'Слишком много запросов подряд. Подождите немного и попробуйте снова.',
            retry: '🔄 Повторить',
          } : {
            unauthorized: 'Could not confirm the app was opened from Telegram. Close it and open it again with the bot’s button.',
            offline: 'The bot cannot be reached. Check the connection and try again.',
            failed: 'The bot could not answer. Try again in a minute.',
            tooMany: 'Too many requests in a row. Wait a little and try again.',
            retry: '🔄 Retry',
          };
          if (!russian) root.lang = 'en';

          const base = location.pathname.replace(/\/+$/, '');
          const main = document.querySelector('main');

          // What went wrong, above the screen still shown (its tabs stay), with the request to try again.
          function say(text, state, again) {
            for (const old of main.querySelectorAll('.trouble')) old.remove();
            const note = document.createElement('div');
            note.className = 'trouble';
            const paragraph = document.createElement('p');
            paragraph.className = 'failure';
            paragraph.textContent = '⚠️ ' + text;
            note.append(paragraph);
            if (again) {
              const button = document.createElement('button');
              button.type = 'button';
              button.textContent = words.retry;
              button.addEventListener('click', again);
              note.append(button);
            }
            for (const loading of main.querySelectorAll('.loading')) loading.remove();
            main.prepend(note);
            root.dataset.ready = state;
          }

          // A screen, or the screen a change leaves: the server draws it; the page puts it in place.
          // Only the latest request's answer is put in place: an earlier one arriving late is dropped.
          let latest = 0;
          async function load(path, options, screen, onShown) {
            const ticket = ++latest;
            const again = () => load(path, options, screen, onShown);
            main.setAttribute('aria-busy', 'true');
            let response;
            try {
              response = await fetch(base + path, Object.assign({ cache: 'no-store' }, options, {
                headers: Object.assign({ Authorization: 'tma ' + initData }, options.headers || {}),
              }));
            } catch (error) {
              if (ticket === latest) { main.removeAttribute('aria-busy'); say(words.offline, 'offline', again); }
              return;
            }
            if (ticket !== latest) return;
            main.removeAttribute('aria-busy');
            if (response.status === 401) return say(words.unauthorized, 'unauthorized');
            if (response.status === 429) return say(words.tooMany, 'too-many', again);
            if (!response.ok) return say(words.failed, 'failed', again);
            const html = await response.text();
            if (ticket !== latest) return;
            root.lang = response.headers.get('Content-Language') || root.lang;
            main.innerHTML = html;
            if (onShown) onShown();
            wire();
            root.dataset.ready = screen;
          }

          // The screen shown, which a change asks the server to draw again.
          let shown = { screen: 'weather', query: '' };

          function show(screen, query) {
            return load('/api/screen/' + screen + (query ? '?' + query : ''), {}, screen, () => { shown = { screen, query: query || '' }; });
          }

          function change(body) {
            return load('/api/action', {
              method: 'POST', headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify(Object.assign({ screen: shown.screen, query: shown.query }, body)),
            }, shown.screen);
          }

          // «📍 My location»: Telegram's location access where the client has it, else the browser's.
          function locate(button) {
            const found = (latitude, longitude) => show('place', 'lat=' + latitude + '&lon=' + longitude);
            const denied = () => {
              let note = main.querySelector('.located');
              if (!note) {
                note = document.createElement('p');
                note.className = 'hint located';
                button.parentElement.after(note);
              }
              note.textContent = button.dataset.denied;
            };
            const manager = telegram && telegram.LocationManager;
            if (manager && manager.init) {
              manager.init(() => {
                if (!manager.isLocationAvailable) return denied();
                manager.getLocation((location) => location ? found(location.latitude, location.longitude) : denied());
              });
            } else if (navigator.geolocation) {
              navigator.geolocation.getCurrentPosition((position) => found(position.coords.latitude, position.coords.longitude), denied);
            } else {
              denied();
            }
          }

          // A favorite dragged by its handle to another place in the list is moved there.
          function wireReorder(list) {
            const rows = () => Array.from(list.querySelectorAll('li.favorite'));
            for (const handle of list.querySelectorAll('.handle')) {
              handle.addEventListener('pointerdown', (event) => {
                if (!event.isPrimary) return;
                const row = handle.closest('li');
                const start = rows().indexOf(row);
                row.classList.add('dragging');
                handle.setPointerCapture(event.pointerId);
                // The neighbours move around the dragged row, never the row itself: a handle
                // taken out of the document would lose the pointer it captured.
                const move = (moved) => {
                  const mine = rows().indexOf(row);
                  for (const [index, other] of rows().entries()) {
                    if (other === row) continue;
                    const box = other.getBoundingClientRect();
                    const middle = box.top + box.height / 2;
                    if (index < mine && moved.clientY < middle) { list.insertBefore(other, row.nextSibling); break; }
                    if (index > mine && moved.clientY > middle) { list.insertBefore(other, row); break; }
                  }
                };
                const end = () => {
                  handle.removeEventListener('pointermove', move);
                  handle.removeEventListener('pointerup', end);
                  handle.removeEventListener('pointercancel', end);
                  row.classList.remove('dragging');
                  const to = rows().indexOf(row);
                  if (to !== start) change({ action: 'move', id: Number(row.dataset.id), to: to + 1 });
                };
                handle.addEventListener('pointermove', move);
                handle.addEventListener('pointerup', end);
                handle.addEventListener('pointercancel', end);
              });
            }
          }

          // The chart: a touch (or a pointer) on it shows the nearest hour's figures.
          function wireChart(svg) {
            const points = Array.from(svg.querySelectorAll('circle'));
            const readout = svg.parentElement.querySelector('.readout');
            const touch = (event) => {
              const box = svg.getBoundingClientRect();
              const x = (event.clientX - box.left) / box.width * svg.viewBox.baseVal.width;
              let nearest = points[0];
              for (const point of points) {
                if (Math.abs(point.cx.baseVal.value - x) < Math.abs(nearest.cx.baseVal.value - x)) nearest = point;
              }
              for (const point of points) point.classList.toggle('touched', point === nearest);
              readout.textContent = nearest.dataset.readout;
            };
            svg.addEventListener('pointerdown', touch);
            svg.addEventListener('pointermove', (event) => { if (event.buttons || event.pointerType !== 'mouse') touch(event); });
          }

          function wire() {
            for (const link of main.querySelectorAll('[data-screen]')) {
              link.addEventListener('click', (event) => {
                event.preventDefault();
                show(link.dataset.screen, link.dataset.query || '');
              });
            }
            for (const form of main.querySelectorAll('.search-form')) {
              form.addEventListener('submit', (event) => {
                event.preventDefault();
                show('search', 'q=' + encodeURIComponent(form.elements.q.value.trim()));
              });
            }
            for (const button of main.querySelectorAll('[data-action="locate"]')) button.addEventListener('click', () => locate(button));
            for (const button of main.querySelectorAll('[data-action="press"]')) {
              button.addEventListener('click', () => change({ action: 'press', data: button.dataset.press }));
            }
            for (const form of main.querySelectorAll('form.typed')) {
              form.addEventListener('submit', (event) => {
                event.preventDefault();
                const text = form.elements.text.value.trim();
                if (text) change({ action: form.dataset.action, text });
              });
            }
            for (const button of main.querySelectorAll('[data-action="add"], [data-action="city"]')) {
              button.addEventListener('click', () => change({ action: button.dataset.action, place: button.dataset.place }));
            }
            for (const svg of main.querySelectorAll('.chart svg')) wireChart(svg);
            for (const button of main.querySelectorAll('[data-action="delete"]')) {
              button.addEventListener('click', () => change({ action: 'delete', id: Number(button.dataset.id) }));
            }
            for (const list of main.querySelectorAll('.places')) wireReorder(list);
          }

          if (!initData) return say(words.unauthorized, 'unauthorized');
          // A link with `startapp=favorites` (`search`, `settings`) opens that screen; any other, the weather.
          const start = (telegram && telegram.initDataUnsafe && telegram.initDataUnsafe.start_param) || launch.get('tgWebAppStartParam');
          show(['favorites', 'search', 'settings'].includes(start) ? start : 'weather', '');
        })();
        """#
}
