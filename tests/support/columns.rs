//! A committed CSV fixture read by its header's names: each row's cells at
//! the named columns, in the order asked (the files hold no quoted commas).

/// The rows of `text` (header first), each as the cells of the columns
/// `names`, in that order.
pub fn rows<'a, const N: usize>(text: &'a str, names: [&str; N]) -> Vec<[&'a str; N]> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let at = names.map(|name| {
        header
            .iter()
            .position(|c| *c == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    });
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            at.map(|i| cells[i])
        })
        .collect()
}
