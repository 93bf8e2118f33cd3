//! The thread pool and its shares: every part once, a stalled or late share taken over.

use super::*;

#[test]
fn balanced_threads_run_every_part_once_and_take_over_a_stalled_share() {
    use std::sync::atomic::AtomicUsize;
    use std::time::{Duration, Instant};
    for threads in 1..=3 {
        let pool = Pool::new(threads).unwrap();
        for n in [0, 1, 2, 5, 16, 37] {
            let hits: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
            on_threads(&pool, (0..n).collect(), |i: usize| {
                hits[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "{threads} threads, {n} parts");
        }
    }
    // Part 0 (the caller's share) waits until every other part is done: only if the worker
    // takes over the rest of the caller's share does it finish.
    let pool = Pool::new(2).unwrap();
    let (n, done) = (16, AtomicUsize::new(0));
    let start = Instant::now();
    on_threads(&pool, (0..n).collect(), |i: usize| {
        if i == 0 {
            while done.load(Ordering::Acquire) < n - 1 && start.elapsed() < Duration::from_secs(20) {
                std::thread::yield_now();
            }
        }
        done.fetch_add(1, Ordering::Release);
    });
    assert_eq!(done.load(Ordering::Relaxed), n);
    assert!(start.elapsed() < Duration::from_secs(20), "the stalled share was not taken over");
}

#[test]
fn a_late_owner_s_last_block_is_taken_over_by_another_thread() {
    use std::time::Duration;
    let (n, per) = (16, 8);
    let mut slots: Vec<EnvSlot> = (0..n).map(|i| EnvSlot::new(i as u64)).collect();
    let (actions, mut presampled) = (vec![0i64; n], vec![UNSAMPLED; n]);
    let mut b = OutputBuffers::of::<Maquis>(n);
    let mut out = b.out();
    let shares =
        shares(&mut slots, &actions, &mut out, &mut presampled, Copies::none(), &[0, per, n], true, Simd::detect());
    let by: Vec<Mutex<Vec<usize>>> = (0..n).map(|_| Mutex::new(Vec::new())).collect();
    let started = AtomicUsize::new(0);
    let pool = Pool::new(2).unwrap();
    pool.run(&|t| {
        if t == 0 {
            // Until the worker holds the first block of its share.
            while started.load(Ordering::Acquire) == 0 {
                std::hint::spin_loop();
            }
        }
        work_shares(t, &shares, 4, |c| {
            for env in &by[c.first..c.first + c.len()] {
                env.lock().unwrap().push(t);
            }
            if t == 1 && c.first == per {
                started.store(1, Ordering::Release);
                // Stopped by the machine with its last block untaken.
                std::thread::sleep(Duration::from_millis(200));
            }
        });
    });
    let by: Vec<Vec<usize>> = by.into_iter().map(|m| m.into_inner().unwrap()).collect();
    let expected: Vec<Vec<usize>> = (0..n).map(|i| vec![if (8..12).contains(&i) { 1 } else { 0 }]).collect();
    assert_eq!(by, expected, "each environment once; the late worker's last block by the caller");
}

/// `$share`: the one share of `$n` new environments and their rows (the locals it borrows
/// are declared beside it, out of the caller's sight).
macro_rules! one_share {
    ($share:ident, $n:expr) => {
        let mut slots: Vec<EnvSlot> = (0..$n).map(|i| EnvSlot::new(i as u64)).collect();
        let (actions, mut presampled, mut b) = (vec![0i64; $n], vec![UNSAMPLED; $n], OutputBuffers::of::<Maquis>($n));
        let mut out = b.out();
        let $share =
            shares(&mut slots, &actions, &mut out, &mut presampled, Copies::none(), &[0, $n], true, Simd::detect())
                .remove(0);
    };
}

#[test]
fn a_share_goes_to_its_thread_from_the_front_and_to_others_from_the_back_but_its_last_block_unless_late() {
    let n = 20;
    let mut slots: Vec<EnvSlot> = (0..n).map(|i| EnvSlot::new(i as u64)).collect();
    let (actions, mut presampled) = (vec![0i64; n], vec![UNSAMPLED; n]);
    let mut b = OutputBuffers::of::<Maquis>(n);
    let mut out = b.out();
    let first_obs = out.obs.as_ptr();
    let share = shares(&mut slots, &actions, &mut out, &mut presampled, Copies::none(), &[0, n], true, Simd::detect())
        .remove(0);
    // Rows of a chunk: where its observation rows start, and how many; the index it gives its
    // first environment (`Ends`) is where its rows start.
    let rows = |c: &Chunk<Maquis>| {
        let start = (c.obs.as_ptr() as usize - first_obs as usize) / (4 * obs_size());
        assert_eq!(c.first, start);
        (start, c.len())
    };
    let mine = share.next(4, false).unwrap();
    assert_eq!(rows(&mine), (0, 4));
    assert_eq!(mine.masks.len(), 4 * NUM_ACTIONS);
    let taken = share.next(4, true).unwrap();
    assert_eq!(rows(&taken), (16, 4));
    assert_eq!((taken.actions.len(), taken.presampled.len(), taken.final_obs.len()), (4, 4, 4 * obs_size()));
    for (start, len) in [(4, 4), (8, 4)] {
        assert_eq!(rows(&share.next(4, false).unwrap()), (start, len));
    }
    // Four left, one block: the owner's, unless it is late; then others take it from the
    // back too, a piece at a time.
    assert!(share.next(4, true).is_none());
    assert!(!share.all_taken());
    assert_eq!(rows(&share.next_late(3).unwrap()), (13, 3));
    assert_eq!(rows(&share.next(4, false).unwrap()), (12, 1));
    assert!(share.all_taken());
    assert!(share.next(4, false).is_none() && share.next_late(3).is_none());
    // With more than a block left, another thread leaves the owner a whole block.
    one_share!(share, 10);
    assert_eq!(share.next(4, true).unwrap().len(), 4);
    assert_eq!(share.next(4, true).unwrap().len(), 2);
    assert!(share.next(4, true).is_none());
    assert_eq!(share.next(8, false).unwrap().len(), 4);
    // A short last block.
    one_share!(share, 3);
    assert_eq!(share.next(2, false).unwrap().len(), 2);
    assert_eq!(share.next(2, false).unwrap().len(), 1);
    assert!(share.next(2, false).is_none());
}

#[test]
fn balance_gives_a_slower_thread_a_smaller_share_once_a_window_shows_it() {
    use std::time::Duration;
    let ms = Duration::from_millis;
    let mut b = Balance::new(1000, 2);
    assert_eq!(b.bounds(), &[0, 500, 1000]);
    // Thread 1 takes twice as long per environment: the shares move after a whole window only.
    for step in 1..=16 {
        b.measured(0, 500, ms(1));
        b.measured(1, 500, ms(2));
        b.step_done();
        if step < 16 {
            assert_eq!(b.bounds(), &[0, 500, 1000]);
        }
    }
    assert_eq!(b.bounds(), &[0, 667, 1000]);
    // Now equal in time: within the tolerance, nothing moves.
    for _ in 0..64 {
        b.measured(0, 667, ms(4) / 3);
        b.measured(1, 333, ms(4) / 3);
        b.step_done();
    }
    assert_eq!(b.bounds(), &[0, 667, 1000]);
    // A share mostly taken by other threads is not a measure of its thread; a thread measured
    // far slower still counts as half the mean speed.
    let mut b = Balance::new(900, 3);
    for _ in 0..16 {
        b.measured(0, 300, ms(1));
        b.measured(1, 100, ms(50));
        b.measured(2, 300, ms(1));
        b.step_done();
    }
    assert_eq!(b.bounds(), &[0, 300, 600, 900], "thread 1 measured nothing");
    for _ in 0..16 {
        b.measured(0, 300, ms(1));
        b.measured(1, 300, ms(100));
        b.measured(2, 300, ms(1));
        b.step_done();
    }
    let shares: Vec<usize> = b.ranges().map(|r| r.len()).collect();
    assert_eq!(shares.iter().sum::<usize>(), 900);
    assert!((120..140).contains(&shares[1]) && shares[0].abs_diff(shares[2]) <= 1, "{shares:?}");
}

#[test]
fn each_thread_prefetches_where_it_measured_prefetching_faster_and_tries_the_other_way_again() {
    use std::time::Duration;
    let us = Duration::from_micros;
    // Thread 0 steps its share in 2 µs a step prefetching and 3 without; thread 1 the reverse.
    let time = |t: usize, on: bool| us(if (t == 0) == on { 2 } else { 3 });
    let mut p = Prefetching::new(2);
    let mut ways = vec![];
    for _ in 0..40 * WINDOW {
        for t in 0..2 {
            p.measured(t, 100, time(t, p.on(t)));
        }
        p.step_done();
        ways.push(p.ways());
    }
    let window = |w: u32| ways[(w * WINDOW - 1) as usize].clone();
    // Off through the first window (left out: its lines are cold) and the second (measured
    // off), on for the third (measured on), then each thread's faster way.
    assert_eq!([window(1), window(2)], [vec![false, false], vec![true, true]]);
    assert_eq!(window(3), vec![true, false]);
    // The other way again for one window in every `RETRY` (16), then back.
    let tries: Vec<u32> = (3..40).filter(|&w| window(w) != vec![true, false]).collect();
    assert_eq!(tries, vec![16, 32]);
    assert_eq!(window(16), vec![false, true]);
    p.fix(Some(false));
    assert_eq!(p.ways(), vec![false, false]);
    p.fix(None);
    assert_eq!(p.ways(), vec![true, false]);
    // Prefetching 1 % faster is within the noise: the plain loop is kept.
    let mut p = Prefetching::new(1);
    for _ in 0..8 * WINDOW {
        p.measured(0, 100, us(if p.on(0) { 99 } else { 100 }));
        p.step_done();
    }
    assert_eq!(p.ways(), vec![false]);
}

#[test]
fn batches_sharing_one_pool_play_as_on_their_own_and_a_pool_too_large_is_refused() {
    use std::sync::Arc;
    let c = cfg(IllegalPolicy::Terminate);
    let (mut alone, mut b_alone) = engine(&c, 6, 1, Autoreset::NextStep, Some(11));
    let (mut owner, mut b_owner) = engine(&c, 9, 3, Autoreset::NextStep, Some(5));
    let (mut guest, mut b_guest) = engine(&c, 6, 2, Autoreset::NextStep, Some(11));
    let shared = Arc::clone(owner.pool());
    guest.use_pool(Arc::clone(&shared)).unwrap();
    assert_eq!(guest.num_threads(), 3);
    assert_eq!(guest.thread_shares().len(), 3);
    // Both batches step at once from two threads: their jobs take turns on the one pool.
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut a = vec![0i64; 9];
            for _ in 0..200 {
                owner.sample_actions(&mut a);
                owner.step(&a, &mut b_owner.out()).unwrap();
            }
        });
        let (mut a, mut g) = (vec![0i64; 6], vec![0i64; 6]);
        for _ in 0..200 {
            alone.sample_actions(&mut a);
            guest.sample_actions(&mut g);
            assert_eq!(a, g);
            alone.step(&a, &mut b_alone.out()).unwrap();
            guest.step(&a, &mut b_guest.out()).unwrap();
            assert_eq!(b_alone.obs(), b_guest.obs());
            assert_eq!(b_alone.masks, b_guest.masks);
            assert_eq!(b_alone.rewards, b_guest.rewards);
            assert_eq!(b_alone.terminated, b_guest.terminated);
        }
    });
    let (mut small, _) = engine(&c, 2, 1, Autoreset::NextStep, Some(1));
    let err = small.use_pool(shared).unwrap_err().to_string();
    assert!(err.contains("3 threads cannot step a batch of 2"), "{err}");
    assert_eq!(small.num_threads(), 1);
}
