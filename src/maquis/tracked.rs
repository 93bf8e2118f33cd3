//! `Tracked<T>`: a value that counts its mutable accesses, for the groups of `State` that change
//! on few steps. The vector environment compares the counts with those of the observation it
//! last wrote and rewrites only the sections whose group may have changed
//! (`observation::update_observation`).

use serde::{Deserialize, Serialize};

/// Fields that change on few steps, behind a counter of changes, so that the vector
/// environment rewrites their part of an observation only when it may have changed. Every
/// mutable access counts as a change (`DerefMut`; the value has no other way in), so the count
/// cannot miss one. The count is no part of the game: not compared, not saved.
#[derive(Clone, Debug, Default)]
pub struct Tracked<T> {
    value: T,
    changes: u32,
}

impl<T> Tracked<T> {
    pub fn new(value: T) -> Tracked<T> {
        Tracked { value, changes: 0 }
    }
    /// Mutable accesses so far (wrapping): equal counts, no change in between.
    #[inline]
    pub fn changes(&self) -> u32 {
        self.changes
    }

    /// Sets the part `field` picks out to `value`, counting a change only if it differs: rule
    /// code writes `s.today.assign(|t| &mut t.peek, peek)` instead of guarding each write.
    #[inline]
    pub fn assign<V: PartialEq>(&mut self, field: impl FnOnce(&mut T) -> &mut V, value: V) {
        let place = field(&mut self.value);
        if *place != value {
            *place = value;
            self.changes = self.changes.wrapping_add(1);
        }
    }
}

impl<T> std::ops::Deref for Tracked<T> {
    type Target = T;
    #[inline(always)]
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> std::ops::DerefMut for Tracked<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        self.changes = self.changes.wrapping_add(1);
        &mut self.value
    }
}

impl<'a, T> IntoIterator for &'a Tracked<T>
where
    &'a T: IntoIterator,
{
    type Item = <&'a T as IntoIterator>::Item;
    type IntoIter = <&'a T as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        self.value.into_iter()
    }
}

impl<T: PartialEq> PartialEq for Tracked<T> {
    fn eq(&self, other: &Tracked<T>) -> bool {
        self.value == other.value
    }
}

impl<T: Serialize> Serialize for Tracked<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Tracked<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<Tracked<T>, D::Error> {
        T::deserialize(deserializer).map(Tracked::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mutable_access_counts_and_reads_do_not() {
        let mut t = Tracked::new([1u8, 2]);
        assert_eq!((t[0], t.iter().sum::<u8>(), t.changes()), (1, 3, 0));
        t[1] = 5;
        let m = &mut *t;
        m[0] += 1;
        // A mutable access counts even when it changes nothing.
        let _ = &mut t[0];
        assert_eq!((*t, t.changes()), ([2, 5], 3));
    }

    #[test]
    fn assign_counts_a_change_only_when_the_value_differs() {
        let mut t = Tracked::new((1u8, 2u8));
        t.assign(|v| &mut v.0, 1);
        assert_eq!((*t, t.changes()), ((1, 2), 0));
        t.assign(|v| &mut v.1, 7);
        assert_eq!((*t, t.changes()), ((1, 7), 1));
    }

    #[test]
    fn the_count_is_no_part_of_the_value() {
        let (mut a, b) = (Tracked::new(3u8), Tracked::new(3u8));
        *a = 3;
        assert_eq!(a, b);
        assert_ne!(a.changes(), b.changes());
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, "3");
        let back: Tracked<u8> = serde_json::from_str(&json).unwrap();
        assert_eq!((*back, back.changes()), (3, 0));
    }
}
