//! The one interleaving engine: rounds in which every participant runs once, in an order
//! drawn for each round. `Bench::compare_fns` drives it with two functions (`run.rs`),
//! `picollo bench` with commands (the CLI's tracks); a new kind of work is a new
//! [`Rounds`] implementation.

use super::draws::Draws;

/// What the engine interleaves: participants that take turns, a slot each per round.
pub trait Rounds {
    /// Why a slot stopped the rounds.
    type Error;

    /// The order of the next round's slots (indices of participants), drawn from `draws`
    /// along with whatever else the round draws before its first slot.
    fn order(&mut self, draws: &mut Draws) -> Vec<usize>;

    /// One participant's slot of a round. `Ok(false)`: the participant sat the slot out (it
    /// failed before).
    fn slot(&mut self, at: Slot, draws: &mut Draws) -> Result<bool, Self::Error>;
}

/// Which slot the engine runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The round, from 0.
    pub round: usize,
    /// The participant, an index of the round's order.
    pub participant: usize,
    /// No slot of this round ran before it.
    pub first: bool,
}

/// Run `rounds` rounds of `work`: in each, its slots in the order it draws.
pub fn run_rounds<R: Rounds + ?Sized>(
    work: &mut R,
    rounds: usize,
    draws: &mut Draws,
) -> Result<(), R::Error> {
    for round in 0..rounds {
        let mut first = true;
        for participant in work.order(draws) {
            let at = Slot {
                round,
                participant,
                first,
            };
            if work.slot(at, draws)? {
                first = false;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records the slots it is given; participant 1 sits out from round 1 on.
    struct Log {
        n: usize,
        slots: Vec<(usize, usize, bool)>,
    }

    impl Rounds for Log {
        type Error = ();
        fn order(&mut self, draws: &mut Draws) -> Vec<usize> {
            draws.shuffled(self.n)
        }
        fn slot(&mut self, at: Slot, _: &mut Draws) -> Result<bool, ()> {
            if at.participant == 1 && at.round >= 1 {
                return Ok(false);
            }
            self.slots.push((at.round, at.participant, at.first));
            Ok(true)
        }
    }

    #[test]
    fn every_round_runs_each_participant_once_and_the_first_live_slot_opens_it() {
        let mut log = Log {
            n: 3,
            slots: Vec::new(),
        };
        run_rounds(&mut log, 4, &mut Draws::new(Some(11))).unwrap();
        for r in 0..4 {
            let ran: Vec<_> = log.slots.iter().filter(|s| s.0 == r).collect();
            let mut who: Vec<usize> = ran.iter().map(|s| s.1).collect();
            who.sort_unstable();
            assert_eq!(who, if r == 0 { vec![0, 1, 2] } else { vec![0, 2] });
            let firsts: Vec<bool> = ran.iter().map(|s| s.2).collect();
            assert!(firsts[0], "round {r}");
            assert!(firsts[1..].iter().all(|f| !f), "round {r}");
        }
    }
}
