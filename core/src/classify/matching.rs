//! Pairing declared list elements with the live elements they equal, when
//! order does not say which is which.

/// For each row of `fits` (the live positions a declared element equals,
/// in the order to try them), the live position it is paired with: a
/// maximum matching by augmenting paths (Kuhn), so a declared element that
/// equals several live elements never takes the one a later element needs.
/// Lists are short, so the quadratic search is cheap.
pub(crate) fn pair(fits: &[Vec<usize>], live_len: usize) -> Vec<Option<usize>> {
    let mut owner: Vec<Option<usize>> = vec![None; live_len];
    for row in 0..fits.len() {
        augment(row, fits, &mut vec![false; live_len], &mut owner);
    }
    let mut rows = vec![None; fits.len()];
    for (j, o) in owner.iter().enumerate() {
        if let Some(i) = o {
            rows[*i] = Some(j);
        }
    }
    rows
}

/// Finds a live position for `row`, moving earlier rows to their other
/// fits where that frees one.
fn augment(
    row: usize,
    fits: &[Vec<usize>],
    seen: &mut [bool],
    owner: &mut [Option<usize>],
) -> bool {
    for &j in &fits[row] {
        if j >= seen.len() || seen[j] {
            continue;
        }
        seen[j] = true;
        if owner[j].is_none_or(|k| augment(k, fits, seen, owner)) {
            owner[j] = Some(row);
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::pair;

    #[test]
    fn a_later_row_gets_the_only_element_it_fits() {
        // Row 0 fits both live positions, row 1 only the first: first-fit
        // would give position 0 to row 0 and strand row 1.
        assert_eq!(pair(&[vec![0, 1], vec![0]], 2), vec![Some(1), Some(0)]);
    }

    #[test]
    fn rows_keep_their_first_choice_when_nothing_competes() {
        assert_eq!(pair(&[vec![0, 1], vec![1, 0]], 2), vec![Some(0), Some(1)]);
    }

    #[test]
    fn an_element_two_rows_need_pairs_once() {
        assert_eq!(pair(&[vec![0], vec![0]], 2), vec![Some(0), None]);
        assert!(pair(&[], 0).is_empty());
    }
}
