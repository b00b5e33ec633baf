//! The page's files, built into the binary (no build step: plain HTML,
//! CSS and JavaScript modules).

/// `(path, content type, content)` of every file served.
pub const FILES: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../static/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../static/app.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../static/style.css"),
    ),
];

/// The file served at `path`.
pub fn find(path: &str) -> Option<(&'static str, &'static str)> {
    FILES
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|(_, t, c)| (*t, *c))
}
