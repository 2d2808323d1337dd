//! Pairing declared list elements with the live elements they equal, when
//! order does not say which is which.

use crate::normalize::arrays::canonical_text;
use serde_json::Value;
use std::collections::HashMap;

/// For each of `rows` declared elements, the live position (of `cols`) it
/// is paired with: a maximum matching by augmenting paths (Kuhn), so a
/// declared element that equals several live elements never takes the one
/// a later element needs. Each row tries its own position first, so an
/// unchanged list pairs in place with one `fits` call per element; `fits`
/// is asked at most once per pair, and for an element out of place that
/// has an identical live twin, only once (a reordered list costs one
/// comparison per element).
pub(crate) fn pair(
    declared: &[Value],
    live: &[Value],
    fits: &mut dyn FnMut(usize, usize) -> bool,
) -> Vec<Option<usize>> {
    let rows = declared.len();
    let mut m = Matcher::new(rows, live.len(), fits);
    m.seed(declared, live);
    for row in 0..rows {
        if !m.placed(row) {
            m.place(row);
        }
    }
    let mut out = vec![None; rows];
    for (j, o) in m.owner.iter().enumerate() {
        if let Some(i) = o {
            out[*i] = Some(j);
        }
    }
    out
}

/// True when every declared element pairs with a distinct live element
/// ([`pair`] leaving none out); stops at the first that cannot.
pub(crate) fn pairs_all(
    declared: &[Value],
    live: &[Value],
    fits: &mut dyn FnMut(usize, usize) -> bool,
) -> bool {
    let mut m = Matcher::new(declared.len(), live.len(), fits);
    m.seed(declared, live);
    (0..declared.len()).all(|row| m.placed(row) || m.place(row))
}

/// The search state: which pairs are known to fit, and who holds each live
/// position.
struct Matcher<'f> {
    cols: usize,
    known: Vec<Option<bool>>,
    owner: Vec<Option<usize>>,
    fits: &'f mut dyn FnMut(usize, usize) -> bool,
}

impl<'f> Matcher<'f> {
    fn new(rows: usize, cols: usize, fits: &'f mut dyn FnMut(usize, usize) -> bool) -> Self {
        Matcher {
            cols,
            known: vec![None; rows * cols],
            owner: vec![None; cols],
            fits,
        }
    }

    /// Starts each declared element paired: with the live element at its
    /// own position where they are equal (an unchanged list, the common
    /// case), else with an identical live element that is free. Identical
    /// values are equal under every fold, and a later element that needs
    /// such a twin can still move it.
    fn seed(&mut self, declared: &[Value], live: &[Value]) {
        let mut open = Vec::new();
        for i in 0..declared.len() {
            if i < live.len() && self.fit(i, i) {
                self.owner[i] = Some(i);
            } else {
                open.push(i);
            }
        }
        if open.is_empty() {
            return;
        }
        let mut twins: HashMap<String, Vec<usize>> = HashMap::new();
        for (j, l) in live.iter().enumerate().rev() {
            if self.owner[j].is_none() {
                twins.entry(canonical_text(l)).or_default().push(j);
            }
        }
        for i in open {
            if let Some(j) = twins
                .get_mut(&canonical_text(&declared[i]))
                .and_then(Vec::pop)
            {
                self.known[i * self.cols + j] = Some(true);
                self.owner[j] = Some(i);
            }
        }
    }

    /// True when `row` holds a live position.
    fn placed(&self, row: usize) -> bool {
        self.owner.contains(&Some(row))
    }

    /// Places `row`, re-placing earlier rows where needed.
    fn place(&mut self, row: usize) -> bool {
        let mut seen = vec![false; self.cols];
        self.augment(row, &mut seen)
    }

    /// Whether declared `i` equals live `j` (asked once, then remembered).
    fn fit(&mut self, i: usize, j: usize) -> bool {
        let slot = i * self.cols + j;
        if let Some(k) = self.known[slot] {
            return k;
        }
        let k = (self.fits)(i, j);
        self.known[slot] = Some(k);
        k
    }

    /// Finds a live position for `row`, moving earlier rows to their other
    /// fits where that frees one.
    fn augment(&mut self, row: usize, seen: &mut [bool]) -> bool {
        let own = (row < self.cols).then_some(row);
        let order = own
            .into_iter()
            .chain((0..self.cols).filter(move |&j| Some(j) != own));
        for j in order {
            if seen[j] || !self.fit(row, j) {
                continue;
            }
            seen[j] = true;
            let free = match self.owner[j] {
                None => true,
                Some(k) => self.augment(k, seen),
            };
            if free {
                self.owner[j] = Some(row);
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::pair;

    use serde_json::{json, Value};

    /// Distinct values, so no element has an identical twin.
    fn items(prefix: &str, n: usize) -> Vec<Value> {
        (0..n).map(|i| json!(format!("{prefix}{i}"))).collect()
    }

    fn with(table: &[&[usize]], cols: usize) -> Vec<Option<usize>> {
        pair(&items("d", table.len()), &items("l", cols), &mut |i, j| {
            table[i].contains(&j)
        })
    }

    #[test]
    fn a_later_row_gets_the_only_element_it_fits() {
        // Row 0 fits both live positions, row 1 only the first: first-fit
        // would give position 0 to row 0 and strand row 1.
        assert_eq!(with(&[&[0, 1], &[0]], 2), vec![Some(1), Some(0)]);
    }

    #[test]
    fn rows_keep_their_own_position_when_nothing_competes() {
        assert_eq!(with(&[&[0, 1], &[0, 1]], 2), vec![Some(0), Some(1)]);
    }

    #[test]
    fn an_element_two_rows_need_pairs_once() {
        assert_eq!(with(&[&[0], &[0]], 2), vec![Some(0), None]);
        assert!(with(&[], 0).is_empty());
        let (d, l) = (items("d", 2), items("l", 2));
        assert!(!super::pairs_all(&d, &l, &mut |_, j| j == 0));
        assert!(super::pairs_all(&d, &l, &mut |i, j| i != j));
    }

    #[test]
    fn an_unchanged_list_asks_once_per_element() {
        let mut asked = 0;
        let out = pair(&items("d", 50), &items("l", 50), &mut |i, j| {
            asked += 1;
            i == j
        });
        assert!(out.iter().enumerate().all(|(i, j)| *j == Some(i)));
        assert_eq!(asked, 50);
    }

    #[test]
    fn a_reordered_list_pairs_twins_asking_once_each() {
        let d = items("x", 40);
        let mut l = d.clone();
        l.reverse();
        let mut asked = 0;
        let out = pair(&d, &l, &mut |i, j| {
            asked += 1;
            d[i] == l[j]
        });
        assert!(out.iter().enumerate().all(|(i, j)| *j == Some(39 - i)));
        // One look at its own position each, then paired with its twin.
        assert_eq!(asked, 40);
    }

    #[test]
    fn a_twin_moves_for_an_element_that_needs_it() {
        // "t" starts paired with its twin, but the second element fits only
        // that twin, and "t" fits the other one too: the twin moves.
        let (d, l) = (vec![json!("t"), json!("u")], vec![json!("t"), json!("v")]);
        let out = pair(&d, &l, &mut |i, j| !(i == 1 && j == 1));
        assert_eq!(out, vec![Some(1), Some(0)]);
    }
}
