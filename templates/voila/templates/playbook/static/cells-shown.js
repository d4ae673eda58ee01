// The end of the cells on a page the playbook's frontend draws (frontend/): nothing waits for a
// theme to load as on Voila's (the page links its sheets), so the cells are shown as the
// notebook ends; starting.js keeps them unseen until the dashboard is drawn.
window.themeLoaded = true;
window.voila_finish();
