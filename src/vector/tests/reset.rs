//! Resets, their options and the snapshots: a failed reset changes nothing, options hold for one
//! reset, a snapshot continues identically; rewards and policies parse spec ids only.

use super::*;

#[test]
fn a_failed_reset_changes_nothing_not_even_the_stream() {
    let mut s = EnvSlot::new(5);
    s.reset(&Setup::default()).unwrap();
    let before = s.clone();
    let start = crate::maquis::rules::StartOverrides { morale: Some(99), ..Default::default() };
    let bad = Setup { start: Some(start), ..Setup::default() };
    assert!(s.reset(&bad).is_err());
    assert_eq!(s, before);
    // The next reset draws the seed the failed one would have drawn.
    let mut twin = before.clone();
    s.reset(&Setup::default()).unwrap();
    twin.reset(&Setup::default()).unwrap();
    assert_eq!(s, twin);
    assert_ne!(s.state(), before.state());
}

#[test]
fn reset_options_override_one_reset_and_reject_unknown_keys() {
    let base = Setup::default();
    let o = ResetOptions::from_json(r#"{"difficulty": "hard", "missions": ["sabotage", "aid_the_spy"], "patrol_deck": [9,8,7,6,5,4,3,2,1,0], "start": {"morale": 3, "resources": {"weapon": 2}}}"#).unwrap();
    let s = o.setup(&base).unwrap();
    let mut slot = EnvSlot::new(0);
    slot.reset(&s).unwrap();
    assert_eq!(slot.state().difficulty, Difficulty::Hard);
    assert_eq!(slot.state().tracks.morale, 3);
    assert_eq!(slot.state().missions[0].id, MissionId::Sabotage);
    for bad in [
        r#"{"dificulty": "hard"}"#,
        r#"{"difficulty": "impossible"}"#,
        r#"{"start": {"moral": 3}}"#,
        r#"{"missions": ["sabotage", "nope"]}"#,
    ] {
        assert!(
            matches!(ResetOptions::from_json(bad), Err(Error::BadOption(_))),
            "{bad}"
        );
    }
    let twice = ResetOptions::from_json(r#"{"missions": ["sabotage", "sabotage"]}"#).unwrap();
    assert!(twice.setup(&base).is_err());
    // A failing reset changes nothing, not even the episode stream.
    let before = slot.clone();
    let too_many = ResetOptions::from_json(r#"{"start": {"resources": {"weapon": 9}}}"#)
        .unwrap()
        .setup(&base)
        .unwrap();
    assert!(slot.reset(&too_many).is_err());
    assert_eq!(slot, before);
}

#[test]
fn rewards_and_policies_parse_spec_ids_only() {
    let r = Rewards::default().with("draw", -0.5).unwrap();
    assert_eq!(r.of(Outcome::Draw), -0.5);
    assert_eq!(r.of(Outcome::Win), 1.0);
    assert!(Rewards::default().with("victory", 1.0).is_err());
    assert!(Rewards::default().with("win", f64::NAN).is_err());
    assert!(IllegalPolicy::parse("ignore").is_err());
    assert!(Autoreset::parse("sometimes").is_err());
}

#[test]
fn snapshot_round_trip_is_exact_and_continues_identically() {
    let c = cfg(IllegalPolicy::Terminate);
    let mut s = EnvSlot::new(77);
    s.reset(&c.setup).unwrap();
    for _ in 0..25 {
        if let Some(a) = s.sample() {
            s.step(&c, a as i64).unwrap();
        }
    }
    let (c2, mut t) = env_from_snapshot(&env_snapshot(&c, &s)).unwrap();
    assert_eq!(c2, c);
    assert_eq!(t, s);
    while !s.done() {
        let (a, b) = (s.sample().unwrap(), t.sample().unwrap());
        assert_eq!(a, b);
        assert_eq!(s.step(&c, a as i64).unwrap(), t.step(&c, b as i64).unwrap());
    }
    s.reset(&c.setup).unwrap();
    t.reset(&c.setup).unwrap();
    assert_eq!(s, t);
    assert!(env_from_snapshot("{}").is_err());
    assert!(env_from_snapshot("not json").is_err());
}
