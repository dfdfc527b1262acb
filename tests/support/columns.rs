//! A committed CSV fixture read by its header's names: each row's cells at
//! the named columns, in the order asked. A cell may be quoted (RFC 4180:
//! commas inside, `""` for a quote, which is kept doubled); a record is one
//! line.

/// The cells of one line, a quoted cell without its outer quotes.
fn cells(line: &str) -> Vec<&str> {
    let mut cells = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                cells.push(&line[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    cells.push(&line[start..]);
    cells
        .into_iter()
        .map(|c| c.strip_prefix('"').and_then(|c| c.strip_suffix('"')).unwrap_or(c))
        .collect()
}

/// The rows of `text` (header first), each as the cells of the columns
/// `names`, in that order.
pub fn rows<'a, const N: usize>(text: &'a str, names: [&str; N]) -> Vec<[&'a str; N]> {
    let mut lines = text.lines();
    let header = cells(lines.next().expect("a header"));
    let at = names.map(|name| {
        header
            .iter()
            .position(|c| *c == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    });
    lines
        .map(|line| {
            let cells = cells(line);
            at.map(|i| cells[i])
        })
        .collect()
}
