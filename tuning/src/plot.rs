//! The loss per epoch as an SVG line chart (training and validation).

/// An SVG of `history` (per epoch: training, validation loss), with axes,
/// tick labels, a legend and a mark at the kept epoch.
pub fn loss_svg(title: &str, history: &[(f64, f64)], best_epoch: usize) -> String {
    let (w, h) = (720.0, 420.0);
    let (left, right, top, bottom) = (80.0, 20.0, 40.0, 50.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let epochs = history.len().saturating_sub(1).max(1) as f64;
    let values = history.iter().flat_map(|&(a, b)| [a, b]);
    let (mut lo, mut hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, u), x| {
        (l.min(x), u.max(x))
    });
    if !lo.is_finite() || !hi.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if hi - lo < 1e-12 {
        hi = lo + 1e-6;
    }
    let pad = (hi - lo) * 0.05;
    let (lo, hi) = (lo - pad, hi + pad);
    let px = |e: f64| left + pw * e / epochs;
    let py = |v: f64| top + ph * (hi - v) / (hi - lo);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n",
        w / 2.0,
        escape(title)
    );
    // Axes.
    s.push_str(&format!(
        "<line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{}\" stroke=\"black\"/>\n\
         <line x1=\"{left}\" y1=\"{0}\" x2=\"{}\" y2=\"{0}\" stroke=\"black\"/>\n",
        top + ph,
        left + pw
    ));
    for i in 0..=5 {
        let v = lo + (hi - lo) * i as f64 / 5.0;
        let y = py(v);
        s.push_str(&format!(
            "<line x1=\"{}\" y1=\"{y:.1}\" x2=\"{}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\n\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            left,
            left + pw,
            left - 6.0,
            y + 4.0,
            tick(v, hi - lo)
        ));
        let e = (epochs * i as f64 / 5.0).round();
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{e}</text>\n",
            px(e),
            top + ph + 18.0
        ));
    }
    s.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">epoch</text>\n\
         <text x=\"18\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 18 {2})\">loss (MSE)</text>\n",
        left + pw / 2.0,
        h - 10.0,
        top + ph / 2.0
    ));
    // The kept epoch.
    let bx = px(best_epoch as f64);
    s.push_str(&format!(
        "<line x1=\"{bx:.1}\" y1=\"{top}\" x2=\"{bx:.1}\" y2=\"{}\" stroke=\"#999\" stroke-dasharray=\"4 4\"/>\n",
        top + ph
    ));
    for (k, (colour, name)) in [("#1f77b4", "training"), ("#d62728", "validation")]
        .into_iter()
        .enumerate()
    {
        let pts: Vec<String> = history
            .iter()
            .enumerate()
            .map(|(e, l)| {
                let v = if k == 0 { l.0 } else { l.1 };
                format!("{:.1},{:.1}", px(e as f64), py(v))
            })
            .collect();
        s.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\n",
            pts.join(" ")
        ));
        let ly = top + 14.0 + 18.0 * k as f64;
        s.push_str(&format!(
            "<line x1=\"{}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{colour}\" stroke-width=\"2\"/>\n\
             <text x=\"{}\" y=\"{}\">{name}</text>\n",
            left + pw - 150.0,
            left + pw - 125.0,
            left + pw - 118.0,
            ly + 4.0
        ));
    }
    s.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" fill=\"#666\">kept: epoch {best_epoch}</text>\n</svg>\n",
        left + pw - 150.0,
        top + 54.0
    ));
    s
}

fn tick(v: f64, span: f64) -> String {
    let digits = (-(span / 5.0).log10().floor() + 1.0).clamp(0.0, 8.0) as usize;
    format!("{v:.digits$}")
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_svg_with_both_lines() {
        let h = [(0.3, 0.31), (0.2, 0.22), (0.18, 0.21)];
        let s = loss_svg("russian <fit>", &h, 2);
        assert!(s.starts_with("<svg") && s.ends_with("</svg>\n"));
        assert_eq!(s.matches("<polyline").count(), 2);
        assert!(s.contains("russian &lt;fit&gt;"));
        assert!(s.contains("kept: epoch 2"));
        // A flat or empty history still draws.
        assert!(loss_svg("x", &[(1.0, 1.0)], 0).contains("<polyline"));
        assert!(loss_svg("x", &[], 0).contains("</svg>"));
    }
}
