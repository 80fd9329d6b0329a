//! Colour names in theme files, and the fit of 24-bit colours to the xterm 256-colour palette.

use ratatui::style::Color;

/// The colour names a theme file may use, as written in error messages.
pub const COLOR_NAMES: &str = "reset, black, red, green, yellow, blue, magenta, cyan, gray, \
     dark-gray, light-red, light-green, light-yellow, light-blue, light-magenta, light-cyan, white";

/// Reads a colour: a named ANSI colour (`red`, `light-blue`, `dark-gray`; `-`, `_` and spaces are
/// ignored, `grey` = `gray`, `bright-x` = `light-x`, `bright-black` = `dark-gray`), `reset` (the
/// terminal's own colour), `#rrggbb`, or an xterm-256 index `0`-`255`.
pub fn parse_color(text: &str) -> Result<Color, String> {
    let s = text.trim();
    if let Some(hex) = s.strip_prefix('#') {
        return parse_hex(hex).ok_or_else(|| format!("{text:?} is not a #rrggbb colour"));
    }
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        return s
            .parse::<u8>()
            .map(Color::Indexed)
            .map_err(|_| format!("colour index {s} is out of range 0-255"));
    }
    let key: String = s
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let key = key.replace("grey", "gray").replace("bright", "light");
    let color = match key.as_str() {
        "reset" | "default" => Color::Reset,
        "black" => Color::Black,
        "red" => Color::Red,
        "green" => Color::Green,
        "yellow" => Color::Yellow,
        "blue" => Color::Blue,
        "magenta" => Color::Magenta,
        "cyan" => Color::Cyan,
        "gray" => Color::Gray,
        "darkgray" | "lightblack" => Color::DarkGray,
        "lightred" => Color::LightRed,
        "lightgreen" => Color::LightGreen,
        "lightyellow" => Color::LightYellow,
        "lightblue" => Color::LightBlue,
        "lightmagenta" => Color::LightMagenta,
        "lightcyan" => Color::LightCyan,
        "white" | "lightwhite" | "lightgray" => Color::White,
        _ => {
            return Err(format!(
                "unknown colour {text:?} (expected #rrggbb, 0-255 or one of: {COLOR_NAMES})"
            ));
        }
    };
    Ok(color)
}

fn parse_hex(hex: &str) -> Option<Color> {
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some(Color::Rgb(channel(0)?, channel(2)?, channel(4)?))
}

/// The six levels of each channel in the xterm colour cube (indices 16-231).
const CUBE: [u8; 6] = [0, 95, 135, 175, 215, 255];

/// The nearest cube level to a channel value.
fn cube_level(v: u8) -> usize {
    match v {
        0..48 => 0,
        48..115 => 1,
        _ => usize::from((v - 35) / 40),
    }
}

fn distance((r1, g1, b1): (u8, u8, u8), (r2, g2, b2): (u8, u8, u8)) -> u32 {
    let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).unsigned_abs().pow(2);
    d(r1, r2) + d(g1, g2) + d(b1, b2)
}

/// The xterm-256 index nearest to a 24-bit colour: the closer of the nearest colour-cube entry
/// (16-231) and the nearest step of the grey ramp (232-255). The 16 system colours (0-15) are
/// never chosen, since terminals redefine them freely.
pub fn rgb_to_256(r: u8, g: u8, b: u8) -> u8 {
    let (ri, gi, bi) = (cube_level(r), cube_level(g), cube_level(b));
    let cube_rgb = (CUBE[ri], CUBE[gi], CUBE[bi]);
    let cube_index = 16 + 36 * ri + 6 * gi + bi;

    // Grey ramp: 24 steps, 8 + 10k.
    let mean = (u32::from(r) + u32::from(g) + u32::from(b)) / 3;
    let k = (mean.saturating_sub(3) / 10).min(23);
    let level = (8 + 10 * k) as u8;
    let grey_index = 232 + k as usize;

    let pick = if distance((level, level, level), (r, g, b)) < distance(cube_rgb, (r, g, b)) {
        grey_index
    } else {
        cube_index
    };
    pick as u8
}

/// The same colour, usable on a 256-colour terminal: `Rgb` becomes the nearest index, every
/// other colour is kept.
pub fn to_256(color: Color) -> Color {
    match color {
        Color::Rgb(r, g, b) => Color::Indexed(rgb_to_256(r, g, b)),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_names_hex_and_indices() {
        assert_eq!(parse_color("red"), Ok(Color::Red));
        assert_eq!(parse_color("Light-Blue"), Ok(Color::LightBlue));
        assert_eq!(parse_color("dark_grey"), Ok(Color::DarkGray));
        assert_eq!(parse_color("bright-black"), Ok(Color::DarkGray));
        assert_eq!(parse_color("reset"), Ok(Color::Reset));
        assert_eq!(parse_color("#1e2127"), Ok(Color::Rgb(0x1e, 0x21, 0x27)));
        assert_eq!(parse_color("208"), Ok(Color::Indexed(208)));
    }

    #[test]
    fn refuses_what_is_no_colour() {
        assert!(
            parse_color("redd")
                .unwrap_err()
                .contains("unknown colour \"redd\"")
        );
        assert!(parse_color("#12345").unwrap_err().contains("#rrggbb"));
        assert!(parse_color("#gggggg").is_err());
        assert!(parse_color("256").unwrap_err().contains("0-255"));
        assert!(parse_color("").is_err());
    }

    #[test]
    fn maps_cube_corners_and_primaries() {
        assert_eq!(rgb_to_256(0, 0, 0), 16);
        assert_eq!(rgb_to_256(255, 255, 255), 231);
        assert_eq!(rgb_to_256(255, 0, 0), 196);
        assert_eq!(rgb_to_256(0, 255, 0), 46);
        assert_eq!(rgb_to_256(0, 0, 255), 21);
        // Exact cube entries map to themselves: #5f87af is 67.
        assert_eq!(rgb_to_256(0x5f, 0x87, 0xaf), 67);
        assert_eq!(rgb_to_256(0xd7, 0xaf, 0x5f), 179);
    }

    #[test]
    fn maps_greys_to_the_grey_ramp() {
        assert_eq!(rgb_to_256(0x80, 0x80, 0x80), 244);
        assert_eq!(rgb_to_256(0x76, 0x76, 0x76), 243);
        assert_eq!(rgb_to_256(0x08, 0x08, 0x08), 232);
        assert_eq!(rgb_to_256(0xee, 0xee, 0xee), 255);
        // Near-grey with a tint still prefers the ramp when it is closer.
        assert_eq!(rgb_to_256(0x3e, 0x44, 0x51), 238);
    }

    #[test]
    fn maps_near_colours_to_a_close_entry() {
        // #e06c75 (a soft red) → #d75f87 (168), the nearest cube entry.
        assert_eq!(rgb_to_256(0xe0, 0x6c, 0x75), 168);
        for (r, g, b) in [(1, 2, 3), (200, 100, 50), (17, 250, 128), (90, 90, 100)] {
            let Color::Indexed(i) = to_256(Color::Rgb(r, g, b)) else {
                panic!("not indexed")
            };
            assert!(i >= 16);
        }
        assert_eq!(to_256(Color::Red), Color::Red);
        assert_eq!(to_256(Color::Reset), Color::Reset);
    }
}
