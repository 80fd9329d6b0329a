//! A terminal screen as an SVG image: one text run per stretch of cells with the same style.

use std::fmt::Write;

const CELL_W: f32 = 8.4;
const CELL_H: f32 = 17.0;
const FONT: &str = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";
const DEFAULT_FG: &str = "#d4d4d4";
const DEFAULT_BG: &str = "#1e1e1e";

/// The xterm-256 palette entry `i` as `#rrggbb`.
fn indexed(i: u8) -> String {
    const BASE: [&str; 16] = [
        "#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
        "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff",
    ];
    match i {
        0..=15 => BASE[i as usize].to_owned(),
        16..=231 => {
            let n = i - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
            format!(
                "#{:02x}{:02x}{:02x}",
                level(n / 36),
                level((n / 6) % 6),
                level(n % 6)
            )
        }
        _ => {
            let g = 8 + 10 * (i - 232);
            format!("#{g:02x}{g:02x}{g:02x}")
        }
    }
}

fn colour(c: vt100::Color, default: &str) -> String {
    match c {
        vt100::Color::Default => default.to_owned(),
        vt100::Color::Idx(i) => indexed(i),
        vt100::Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Renders `screen` as an SVG document.
pub fn render(screen: &vt100::Screen) -> String {
    let (rows, cols) = screen.size();
    let (rows, cols) = (u16::from(rows), u16::from(cols));
    let (width, height) = (f32::from(cols) * CELL_W, f32::from(rows) * CELL_H);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="{FONT}" font-size="14">"#
    );
    let _ = writeln!(
        out,
        r#"<rect width="100%" height="100%" fill="{DEFAULT_BG}"/>"#
    );
    for row in 0..rows {
        let y = f32::from(row) * CELL_H;
        let mut col = 0;
        while col < cols {
            let Some(cell) = screen.cell(row, col) else {
                break;
            };
            let (mut fg, mut bg) = (
                colour(cell.fgcolor(), DEFAULT_FG),
                colour(cell.bgcolor(), DEFAULT_BG),
            );
            if cell.inverse() {
                std::mem::swap(&mut fg, &mut bg);
            }
            let style = (
                fg.clone(),
                bg.clone(),
                cell.bold(),
                cell.underline(),
                cell.italic(),
            );
            let start = col;
            let mut text = String::new();
            while col < cols {
                let Some(c) = screen.cell(row, col) else {
                    break;
                };
                let (mut f, mut b) = (
                    colour(c.fgcolor(), DEFAULT_FG),
                    colour(c.bgcolor(), DEFAULT_BG),
                );
                if c.inverse() {
                    std::mem::swap(&mut f, &mut b);
                }
                if (f, b, c.bold(), c.underline(), c.italic()) != style {
                    break;
                }
                let contents = c.contents();
                text.push_str(if contents.is_empty() && !c.is_wide_continuation() {
                    " "
                } else {
                    contents
                });
                col += 1;
            }
            let x = f32::from(start) * CELL_W;
            let w = f32::from(col - start) * CELL_W;
            if bg != DEFAULT_BG {
                let _ = writeln!(
                    out,
                    r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{CELL_H}" fill="{bg}"/>"#
                );
            }
            if !text.trim().is_empty() {
                let weight = if style.2 {
                    r#" font-weight="bold""#
                } else {
                    ""
                };
                let deco = if style.3 {
                    r#" text-decoration="underline""#
                } else {
                    ""
                };
                let slant = if style.4 {
                    r#" font-style="italic""#
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    r#"<text x="{x:.1}" y="{:.1}" fill="{fg}" xml:space="preserve" textLength="{w:.1}" lengthAdjust="spacingAndGlyphs"{weight}{deco}{slant}>{}</text>"#,
                    y + CELL_H * 0.78,
                    escape(&text)
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

#[test]
fn the_palette_maps_cube_and_greys() {
    assert_eq!(indexed(196), "#ff0000");
    assert_eq!(indexed(16), "#000000");
    assert_eq!(indexed(232), "#080808");
    assert_eq!(escape("a<b&c"), "a&lt;b&amp;c");
}
