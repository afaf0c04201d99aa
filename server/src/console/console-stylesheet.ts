// The console's own rules, beside Pico CSS; served at /console/assets/console.css. Colours keep a
// contrast of at least 4.5:1 (WCAG AA) on their backgrounds.
export const CONSOLE_STYLESHEET = `main.container, header.container { max-width: 72rem; padding-left: 1rem; padding-right: 1rem; }
main.narrow { max-width: 40rem; padding-top: 4rem; }
.skip { position: absolute; left: -10000px; }
.skip:focus { left: 1rem; top: 1rem; z-index: 10; background: #fff; padding: 0.5rem; }
form.inline { display: inline; margin: 0; }
form.inline button { margin: 0; padding: 0.25rem 0.75rem; width: auto; }
nav ul li small { color: #373c44; }
.flash { padding: 0.5rem 1rem; margin-bottom: 1rem; background: #eef5fb; border-left: 0.4rem solid #0172ad; }
.flash p { margin: 0.25rem 0; }
.badge { display: inline-block; padding: 0 0.5rem; border-radius: 0.25rem; font-size: 0.875em; font-weight: 600; }
.badge.ok { background: #d8efe6; color: #0f4d36; }
.badge.warn { background: #fbeccd; color: #5c3d00; }
.badge.bad { background: #f8d7d4; color: #7a1a12; }
.badge.muted { background: #e7eaf0; color: #373c44; }
table td, table th { font-size: 0.9rem; vertical-align: top; }
code.id { font-size: 0.8rem; }
pre.segments { white-space: pre-wrap; word-break: break-all; font-size: 0.85rem; }
.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: 0 1rem; align-items: end; }
.actions { display: flex; gap: 1rem; flex-wrap: wrap; align-items: end; }
.actions form { margin: 0; }
`;
