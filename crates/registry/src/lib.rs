//! `registry`: the games this build knows by name ([`GAMES`],
//! [`dispatch!`]), the check of a finished game's record ([`verify`],
//! with the fair-deal scheme it checks, [`fair`], and the server's
//! signature of a commitment, [`signed`]), and what must pick the
//! game a text names: a record's play-by-play ([`records`]) and scenario
//! text ([`scenario`]).
//!
//! Everything above the rules crates that must name the concrete games
//! does it through [`dispatch!`], so adding a game means editing this
//! file. The record check lives here, not in the server, because it is a
//! pure replay: the CLI (`ratrace verify`), the server (`POST
//! /api/verify`) and the fuzz targets call the same code without the CLI
//! depending on the server. No IO here; the one use of the operating
//! system's randomness is [`fair::new_secret`], the server's secret, kept
//! beside the scheme that commits to it.

pub mod fair;
pub mod records;
pub mod scenario;
pub mod signed;
pub mod verify;

/// The games this build knows, by command-line name.
pub const GAMES: &[&str] = &["bigcheese", "dalmuti"];

/// The error for a game name that is not one of [`GAMES`].
pub fn unknown_game(name: &str) -> String {
    format!("unknown game `{name}` (choose from: {})", GAMES.join(", "))
}

/// The game types, for [`dispatch!`] (which must name them from any crate).
#[doc(hidden)]
pub mod __games {
    pub use bigcheese::BigCheese;
    pub use dalmuti::Dalmuti;
}

/// Runs `$body` with the type alias `$G` bound to the game called `$name`,
/// or evaluates `$unknown` when no game has that name. The one place above
/// the rules crates that names the concrete games; the CLI, the analysis
/// library and the server use it.
#[macro_export]
macro_rules! dispatch {
    ($name:expr, $G:ident => $body:expr, _ => $unknown:expr) => {
        match $name {
            "bigcheese" => {
                type $G = $crate::__games::BigCheese;
                $body
            }
            "dalmuti" => {
                type $G = $crate::__games::Dalmuti;
                $body
            }
            _ => $unknown,
        }
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_game_dispatches_and_an_unknown_one_does_not() {
        use game::Game;
        for name in super::GAMES {
            let found = dispatch!(*name, G => G::NAME, _ => "none");
            assert_eq!(found, *name);
        }
        assert_eq!(dispatch!("chess", G => G::NAME, _ => "none"), "none");
        assert!(super::unknown_game("chess").contains("bigcheese, dalmuti"));
    }
}
