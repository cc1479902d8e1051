//! The positive-DNF game (`dnf-strategy`), played in variable numbers.
//!
//! Notation: a move is a variable number (`3` or `x3`); a position is `1: 1, 4  2: 2` (the
//! variables each player has chosen). The game ends as soon as it is settled (a term all the
//! first player's, or every term holding a variable of the second's), as the checker's replay
//! does: nothing after that can change the winner.

use super::{brief, words, Family, Outcome, Side, SHOWN};
use gamecert_certificates::base::text::counted;
use gamecert_certificates::posdnf::dnf::{settled, DnfPlayer, DnfStrategy, PosDnf};
use std::collections::HashMap;

pub(crate) struct Dnf {
    dnf: PosDnf,
    player: DnfPlayer,
    /// The certificate's moves by position text (variables 1-based).
    moves: HashMap<String, u32>,
}

fn side(p: DnfPlayer) -> Side {
    match p {
        DnfPlayer::First => Side::First,
        DnfPlayer::Second => Side::Second,
    }
}

impl Dnf {
    pub(crate) fn new(dnf: &PosDnf, strategy: &DnfStrategy) -> Dnf {
        Dnf {
            dnf: dnf.clone(),
            player: strategy.player,
            moves: strategy.moves.iter().cloned().collect(),
        }
    }

    fn chosen(state: &[u8], mark: u8) -> Vec<String> {
        (0..state.len()).filter(|&v| state[v] == mark).map(|v| (v + 1).to_string()).collect()
    }

    /// The terms that hold no variable of the second player (the first player can still own
    /// one whole).
    fn open_terms<'a>(&'a self, state: &'a [u8]) -> impl Iterator<Item = &'a Vec<u32>> + 'a {
        self.dnf.terms.iter().filter(|term| term.iter().all(|&v| state[v as usize - 1] != b'2'))
    }

    fn variable(&self, word: &str) -> Result<usize, String> {
        let digits = word.strip_prefix('x').unwrap_or(word);
        match digits.parse::<usize>() {
            Ok(v) if (1..=self.dnf.num_vars as usize).contains(&v) => Ok(v - 1),
            _ => {
                Err(format!("'{word}' is not a variable: variables are 1 to {}", self.dnf.num_vars))
            }
        }
    }
}

impl Family for Dnf {
    type State = Vec<u8>;
    type Move = usize;

    fn start(&self) -> Vec<u8> {
        vec![b'.'; self.dnf.num_vars as usize]
    }

    fn to_move(&self, state: &Vec<u8>) -> Side {
        let chosen = state.iter().filter(|&&c| c != b'.').count();
        if chosen % 2 == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    fn moves(&self, state: &Vec<u8>) -> Vec<usize> {
        (0..state.len()).filter(|&v| state[v] == b'.').collect()
    }

    fn apply(&self, state: &Vec<u8>, &v: &usize) -> Vec<u8> {
        let mut next = state.clone();
        next[v] = if self.to_move(state) == Side::First { b'1' } else { b'2' };
        next
    }

    fn write_move(&self, _: &Vec<u8>, &v: &usize) -> String {
        (v + 1).to_string()
    }

    fn read_move(&self, state: &Vec<u8>, text: &str) -> Result<usize, String> {
        let v = self.variable(text)?;
        match state[v] {
            b'.' => Ok(v),
            b'1' => Err(format!("variable {} is the first player's already", v + 1)),
            _ => Err(format!("variable {} is the second player's already", v + 1)),
        }
    }

    fn move_syntax(&self) -> String {
        format!(
            "a move is an unchosen variable, 1 to {} (the first player wins by owning every \
             variable of some term)",
            self.dnf.num_vars
        )
    }

    fn write_position(&self, state: &Vec<u8>) -> String {
        format!(
            "1: {}  2: {}",
            Dnf::chosen(state, b'1').join(", "),
            Dnf::chosen(state, b'2').join(", ")
        )
    }

    fn read_position(&self, text: &str) -> Result<Vec<u8>, String> {
        let (Some(a), Some(b)) = (text.find("1:"), text.find("2:")) else {
            return Err("a position is written `1: 1, 4  2: 2` (each player's variables)".into());
        };
        let (first, second) = if a < b {
            (&text[a + 2..b], &text[b + 2..])
        } else {
            (&text[a + 2..], &text[b + 2..a])
        };
        let mut state = self.start();
        for (list, mark) in [(first, b'1'), (second, b'2')] {
            for word in words(list) {
                let v = self.variable(word)?;
                if state[v] != b'.' {
                    return Err(format!("variable {} is listed twice", v + 1));
                }
                state[v] = mark;
            }
        }
        let ones = state.iter().filter(|&&c| c == b'1').count();
        let twos = state.iter().filter(|&&c| c == b'2').count();
        if ones != twos && ones != twos + 1 {
            return Err(format!(
                "the first player holds {ones} variables and the second {twos}: no play reaches that"
            ));
        }
        Ok(state)
    }

    fn draw(&self, state: &Vec<u8>) -> String {
        let (first, second, free) =
            (Dnf::chosen(state, b'1'), Dnf::chosen(state, b'2'), Dnf::chosen(state, b'.'));
        // The terms the first player can still own whole, her variables starred.
        let open: Vec<String> = self
            .open_terms(state)
            .map(|term| {
                let vars: Vec<String> = term
                    .iter()
                    .map(|&v| {
                        let star = if state[v as usize - 1] == b'1' { "*" } else { "" };
                        format!("{v}{star}")
                    })
                    .collect();
                format!("{{{}}}", vars.join(" "))
            })
            .collect();
        format!(
            "  the first player's: {}\n  the second player's: {}\n  free: {}\n  terms \
             without a variable of the second player (* the first player's): {}\n",
            brief(&first, SHOWN),
            brief(&second, SHOWN),
            brief(&free, SHOWN),
            brief(&open, 6)
        )
    }

    fn summary(&self, state: &Vec<u8>) -> String {
        let held = |mark| state.iter().filter(|&&c| c == mark).count();
        let whole = self
            .open_terms(state)
            .filter(|term| term.iter().all(|&v| state[v as usize - 1] == b'1'))
            .count();
        format!(
            "the first player holds {}, the second {}; {} of {} still open to the first player \
             ({} owned whole)",
            counted(held(b'1'), "variable"),
            held(b'2'),
            self.open_terms(state).count(),
            counted(self.dnf.terms.len(), "term"),
            whole
        )
    }

    fn outcome(&self, state: &Vec<u8>) -> Option<Outcome> {
        // A full position is always settled, so every play ends here.
        let winner = settled(&self.dnf, state)?;
        let result = match winner {
            DnfPlayer::First => {
                "the first player owns every variable of a term: the first player wins"
            }
            DnfPlayer::Second => {
                "every term holds a variable of the second player: the second player wins"
            }
        };
        Some(Outcome { winner: Some(side(winner)), result: result.into() })
    }

    fn reply(&self, state: &Vec<u8>) -> Option<usize> {
        if self.to_move(state) != side(self.player) {
            return None;
        }
        let v = *self.moves.get(&*String::from_utf8_lossy(state))? as usize;
        (v >= 1 && v <= state.len() && state[v - 1] == b'.').then_some(v - 1)
    }

    fn default_human(&self) -> Side {
        side(self.player).other()
    }

    fn claim_met(&self, state: &Vec<u8>, who: Side) -> Option<bool> {
        (who == side(self.player)).then(|| settled(&self.dnf, state) == Some(self.player))
    }

    fn svg(&self, state: &Vec<u8>, marked: Option<&usize>, caption: &str) -> String {
        let note = crate::base::game_pictures::dnf_note(
            &self.dnf,
            state,
            Some(side(self.player) == Side::First),
        );
        crate::base::game_pictures::dnf_svg(&self.dnf, state, marked.copied(), caption, &note)
    }
}
