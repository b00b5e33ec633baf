//! A session as the page sees it: one JSON object with everything the
//! board and the panels show.
//!
//! ```text
//! { "id", "variant", "files", "ranks", "fen", "start_fen", "side",
//!   "ply", "moves": ["c3-d4", ...],          // the whole line; ply = cursor
//!   "legal": [{"move": "c3:e5:g3", "path": ["c3","e5","g3"], "capture": true}],
//!   "outcome": null | {"result": "2-0", "reason": "no pieces left", "text": "..."},
//!   "count": null | {"white": 12, "black": 12},   // Adiyukh: the count now
//!   "pieces": [{"square": "a1", "color": "white", "kind": "man|king|tower",
//!               "own": 1, "other": 0}],
//!   "svg": "<svg ...>", "flip": false, "engine": null | {engine status},
//!   "stamp": 17 }                  // added by crate::live: later states, larger
//! ```

use crate::entry;
use crate::session::Session;
use serde_json::{json, Value};
use shashki::tools::svg::{svg_with, SvgOptions};
use shashki::{fen, notation, Piece};

/// The JSON state of a session.
pub fn state(id: &str, s: &Session, engine: Option<Value>) -> Value {
    let pos = s.position();
    let g = pos.geometry();
    let legal: Vec<Value> = if s.game().outcome().is_some() {
        Vec::new()
    } else {
        pos.legal_moves()
            .iter()
            .map(|m| {
                json!({
                    "move": notation::move_text(pos, m),
                    "path": entry::squares(m).iter().map(|&q| g.square_name(q)).collect::<Vec<_>>(),
                    "capture": m.is_capture(),
                })
            })
            .collect()
    };
    let outcome = s.game().outcome().map(|o| {
        json!({
            "result": o.result.pdn(),
            "reason": o.reason.describe(),
            "text": o.to_string(),
        })
    });
    let count = pos.variant().is_tower().then(|| {
        let (w, b) = pos.half_board_score();
        json!({ "white": w, "black": b })
    });
    let mut pieces = Vec::new();
    for file in 0..g.files() {
        for rank in 0..8 {
            let Some(sq) = g.square(file, rank) else {
                continue;
            };
            let Some(p) = pos.piece_at(sq) else { continue };
            let (kind, own, other) = match p {
                Piece::Man(_) => ("man", 1, 0),
                Piece::King(_) => ("king", 1, 0),
                Piece::Tower(t) => ("tower", t.own, t.other),
            };
            pieces.push(json!({
                "square": g.square_name(sq),
                "color": p.color().to_string(),
                "kind": kind,
                "own": own,
                "other": other,
            }));
        }
    }
    let svg = svg_with(
        pos,
        &SvgOptions {
            flip: s.flip,
            coordinates: true,
        },
    );
    json!({
        "id": id,
        "variant": pos.variant().id(),
        "files": g.files(),
        "ranks": 8,
        "fen": fen::position_text(pos),
        "start_fen": fen::position_text(s.start()),
        "side": pos.side_to_move().to_string(),
        "ply": s.ply(),
        "moves": s.line_texts(),
        "legal": legal,
        "outcome": outcome,
        "count": count,
        "pieces": pieces,
        "svg": svg,
        "flip": s.flip,
        "engine": engine,
    })
}
