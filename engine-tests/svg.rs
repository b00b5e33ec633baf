//! The SVG picture: well-formed standalone XML, the right pieces and towers
//! with their composition labels, 10 files on the 80-square board, and the
//! `show --svg` command.

use crate::common::position;
use shashki::tools::svg::{svg, svg_with, SvgOptions};
use shashki::{Position, Variant};

/// A small XML well-formedness check: balanced and properly nested
/// elements, quoted attributes, no stray `<` or `&`, one root element.
/// Returns the element names in document order.
fn check_xml(text: &str) -> Result<Vec<String>, String> {
    let mut stack: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut roots = 0;
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'<' => {
                let end = text[i..]
                    .find('>')
                    .map(|p| i + p)
                    .ok_or(format!("unclosed tag at {i}"))?;
                let inner = &text[i + 1..end];
                if inner.starts_with('?') || inner.starts_with('!') {
                    i = end + 1;
                    continue;
                }
                if let Some(name) = inner.strip_prefix('/') {
                    let open = stack.pop().ok_or(format!("stray </{name}>"))?;
                    if open != name.trim() {
                        return Err(format!("<{open}> closed by </{name}>"));
                    }
                } else {
                    let self_closing = inner.ends_with('/');
                    let body = inner.trim_end_matches('/');
                    let name: String = body.chars().take_while(|c| !c.is_whitespace()).collect();
                    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
                        return Err(format!("bad element name in <{inner}>"));
                    }
                    check_attributes(&body[name.len()..])?;
                    if stack.is_empty() {
                        roots += 1;
                    }
                    names.push(name.clone());
                    if !self_closing {
                        stack.push(name);
                    }
                }
                i = end + 1;
            }
            b'&' => {
                let rest = &text[i..];
                if !["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                    .iter()
                    .any(|e| rest.starts_with(e))
                {
                    return Err(format!("stray & at {i}"));
                }
                i += 1;
            }
            b'>' => return Err(format!("stray > at {i}")),
            _ => i += 1,
        }
    }
    if !stack.is_empty() {
        return Err(format!("unclosed elements {stack:?}"));
    }
    if roots != 1 {
        return Err(format!("{roots} root elements"));
    }
    Ok(names)
}

fn check_attributes(mut s: &str) -> Result<(), String> {
    let mut seen = Vec::new();
    loop {
        s = s.trim_start();
        if s.is_empty() {
            return Ok(());
        }
        let eq = s.find('=').ok_or(format!("attribute without value: {s}"))?;
        let name = s[..eq].trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':')
        {
            return Err(format!("bad attribute name '{name}'"));
        }
        if seen.contains(&name.to_string()) {
            return Err(format!("attribute {name} twice"));
        }
        seen.push(name.to_string());
        let rest = s[eq + 1..].trim_start();
        if !rest.starts_with('"') {
            return Err(format!("unquoted attribute {name}"));
        }
        let close = rest[1..]
            .find('"')
            .ok_or(format!("unclosed attribute {name}"))?;
        if rest[1..1 + close].contains('<') {
            return Err(format!("'<' in attribute {name}"));
        }
        s = &rest[close + 2..];
    }
}

fn count(text: &str, needle: &str) -> usize {
    text.matches(needle).count()
}

#[test]
fn the_checker_catches_broken_xml() {
    assert!(check_xml("<a><b/></a>").is_ok());
    for bad in [
        "<a><b></a>",
        "<a x=1/>",
        "<a/><b/>",
        "<a>&</a>",
        "<a",
        "<a></b>",
    ] {
        assert!(check_xml(bad).is_err(), "{bad}");
    }
}

#[test]
fn start_positions_are_well_formed_with_every_piece() {
    for v in Variant::ALL {
        let pos = Position::start(v);
        for flip in [false, true] {
            let text = svg_with(
                &pos,
                &SvgOptions {
                    flip,
                    coordinates: true,
                },
            );
            let names = check_xml(&text).unwrap_or_else(|e| panic!("{v}: {e}\n{text}"));
            assert_eq!(names[0], "svg");
            assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox="));
            assert!(!text.contains("href"), "no external references");
            let per_side = v.checkers_per_side() as usize;
            let kind = if v.is_tower() { "tower" } else { "man" };
            assert_eq!(
                count(&text, &format!("class=\"piece {kind} white\"")),
                per_side
            );
            assert_eq!(
                count(&text, &format!("class=\"piece {kind} black\"")),
                per_side
            );
            // 64 or 80 squares, plus the background and the frame.
            let squares = 8 * v.geometry().files() as usize;
            assert_eq!(count(&text, "<rect "), squares + 2, "{v}");
            assert!(text.contains("White to move"));
        }
    }
}

#[test]
fn ten_files_on_the_80_square_board() {
    let text = svg(&Position::start(Variant::Adiyukh80));
    for f in "abcdefghij".chars() {
        assert!(text.contains(&format!(">{f}</text>")), "file {f}");
    }
    assert!(text.contains("data-square=\"j8\""));
    let eight = svg(&Position::start(Variant::Adiyukh64));
    assert!(!eight.contains(">i</text>"));
    // The picture is wider than tall by two files.
    let width = |t: &str| -> i32 {
        let v = t.split("viewBox=\"0 0 ").nth(1).unwrap();
        v.split(' ').next().unwrap().parse().unwrap()
    };
    assert_eq!(width(&text) - width(&eight), 120);
}

#[test]
fn kings_and_towers_with_their_composition() {
    let pos = position(Variant::Russian, "B:Wa1,Kd4,c3:Bb6,Kh8,Kf2");
    let text = svg(&pos);
    check_xml(&text).unwrap();
    assert_eq!(count(&text, "class=\"piece king white\""), 1);
    assert_eq!(count(&text, "class=\"piece king black\""), 2);
    assert_eq!(count(&text, "class=\"piece man "), 3);
    assert_eq!(count(&text, "class=\"crown\""), 3);
    assert!(text.contains("Black to move"));

    // Towers: b8 is a White king tower (own promotion rank).
    let pos = position(
        Variant::Adiyukh64,
        "W:Wa1,c1-2/1,d4-2/2,b8-2/1:Bb6,h8,e5-1/3,a7-3",
    );
    let text = svg(&pos);
    check_xml(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(count(&text, "class=\"piece tower"), 8);
    assert_eq!(count(&text, "class=\"piece tower king white\""), 1);
    for label in [">2/1</text>", ">2/2</text>", ">1/3</text>", ">3</text>"] {
        assert!(text.contains(label), "label {label}");
    }
    assert_eq!(count(&text, ">2/1</text>"), 2);
    // Single checkers have no label: 5 labelled towers.
    assert_eq!(count(&text, "class=\"count\""), 5);
    // Discs: one per checker (all heights here are at most 6).
    assert_eq!(count(&text, "r=\"23\""), 20);
    assert!(text.contains("data-square=\"e5\" data-own=\"1\" data-other=\"3\""));
}

#[test]
fn show_writes_the_picture() {
    let dir = std::env::temp_dir().join(format!("shashki-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pos.svg");
    let out = crate::common::shashki_command()
        .args(["show", "--variant", "adiyukh-80", "--svg"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("variant adiyukh-80"), "the report too");
    let text = std::fs::read_to_string(&file).unwrap();
    check_xml(&text).unwrap();
    assert_eq!(count(&text, "class=\"piece tower"), 30);

    let out = crate::common::shashki_command()
        .args(["show", "--svg"])
        .arg(dir.join("no/such/dir/x.svg"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: cannot write"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
