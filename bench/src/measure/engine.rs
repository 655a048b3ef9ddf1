//! The one interleaving engine: rounds in which every participant runs once, in an order
//! drawn for each round. `Bench::compare_fns` drives it with two functions (`run.rs`),
//! `picollo bench` with commands (the CLI's tracks); a new kind of work is a new
//! [`RoundRobin`] implementation.

use super::draws::Draws;

/// What the engine interleaves: participants that take turns, a turn each per round.
pub trait RoundRobin {
    /// Why a turn stopped the rounds.
    type Error;

    /// The order of the next round's turns (indices of participants), drawn from `draws`
    /// along with whatever else the round draws before its first turn.
    fn order(&mut self, draws: &mut Draws) -> Vec<usize>;

    /// One participant's turn of a round. `Ok(false)`: the participant sat the turn out (it
    /// failed before).
    fn turn(&mut self, at: Turn, draws: &mut Draws) -> Result<bool, Self::Error>;
}

/// Which turn the engine runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The round, from 0.
    pub round: usize,
    /// The participant, an index of the round's order.
    pub participant: usize,
    /// No turn of this round ran before it.
    pub first: bool,
}

/// Run rounds `rounds` (`0..n` for `n` rounds; a later range goes on where an earlier one
/// stopped) of `work`: in each, its turns in the order it draws.
pub fn run_rounds<R: RoundRobin + ?Sized>(
    work: &mut R,
    rounds: core::ops::Range<usize>,
    draws: &mut Draws,
) -> Result<(), R::Error> {
    for round in rounds {
        let mut first = true;
        for participant in work.order(draws) {
            let at = Turn {
                round,
                participant,
                first,
            };
            if work.turn(at, draws)? {
                first = false;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records the turns it is given; participant 1 sits out from round 1 on.
    struct Log {
        n: usize,
        turns: Vec<(usize, usize, bool)>,
    }

    impl RoundRobin for Log {
        type Error = ();
        fn order(&mut self, draws: &mut Draws) -> Vec<usize> {
            draws.shuffled(self.n)
        }
        fn turn(&mut self, at: Turn, _: &mut Draws) -> Result<bool, ()> {
            if at.participant == 1 && at.round >= 1 {
                return Ok(false);
            }
            self.turns.push((at.round, at.participant, at.first));
            Ok(true)
        }
    }

    #[test]
    fn every_round_runs_each_participant_once_and_the_first_live_slot_opens_it() {
        let mut log = Log {
            n: 3,
            turns: Vec::new(),
        };
        let mut draws = Draws::new(Some(11));
        run_rounds(&mut log, 0..1, &mut draws).unwrap();
        run_rounds(&mut log, 1..4, &mut draws).unwrap();
        for r in 0..4 {
            let ran: Vec<_> = log.turns.iter().filter(|s| s.0 == r).collect();
            let mut who: Vec<usize> = ran.iter().map(|s| s.1).collect();
            who.sort_unstable();
            assert_eq!(who, if r == 0 { vec![0, 1, 2] } else { vec![0, 2] });
            let firsts: Vec<bool> = ran.iter().map(|s| s.2).collect();
            assert!(firsts[0], "round {r}");
            assert!(firsts[1..].iter().all(|f| !f), "round {r}");
        }
    }
}
