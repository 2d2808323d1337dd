//! Pairing declared list elements with the live elements they equal, when
//! order does not say which is which.

/// For each of `rows` declared elements, the live position (of `cols`) it
/// is paired with: a maximum matching by augmenting paths (Kuhn), so a
/// declared element that equals several live elements never takes the one
/// a later element needs. Each row tries its own position first, so an
/// unchanged list pairs in place with one `fits` call per element; `fits`
/// is asked at most once per pair.
pub(crate) fn pair(
    rows: usize,
    cols: usize,
    fits: &mut dyn FnMut(usize, usize) -> bool,
) -> Vec<Option<usize>> {
    let mut m = Matcher::new(rows, cols, fits);
    for row in 0..rows {
        m.place(row);
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
    rows: usize,
    cols: usize,
    fits: &mut dyn FnMut(usize, usize) -> bool,
) -> bool {
    let mut m = Matcher::new(rows, cols, fits);
    (0..rows).all(|row| m.place(row))
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

    fn with(table: &[&[usize]], cols: usize) -> Vec<Option<usize>> {
        pair(table.len(), cols, &mut |i, j| table[i].contains(&j))
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
        assert!(!super::pairs_all(2, 2, &mut |_, j| j == 0));
        assert!(super::pairs_all(2, 2, &mut |i, j| i != j));
    }

    #[test]
    fn an_unchanged_list_asks_once_per_element() {
        let mut asked = 0;
        let out = pair(50, 50, &mut |i, j| {
            asked += 1;
            i == j
        });
        assert!(out.iter().enumerate().all(|(i, j)| *j == Some(i)));
        assert_eq!(asked, 50);
    }
}
