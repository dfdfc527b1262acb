use paradl::oracle::cost::saved::saved_tensors;
use paradl::oracle::formats::network::{Hints, read_network};
use std::collections::BTreeMap;

#[test]
fn by_kind() {
    let path = std::env::var("NET").unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let n = read_network(&bytes, &path, &Hints::default()).unwrap().network;
    let saved = saved_tensors(&n, 4.0, false);
    let mut by: BTreeMap<String, (usize, f64)> = BTreeMap::new();
    let mut total = 0.0;
    for (l, s) in n.layers().iter().zip(&saved) {
        let key = format!("{:?} {:?}", l.kind(), l.function());
        let e = by.entry(key).or_default();
        e.0 += 1;
        e.1 += s.bytes();
        total += s.bytes();
    }
    println!("total {total:.0}");
    for (k, (c, b)) in by {
        println!("{k:40} {c:5} {b:14.0} {:.1}%", 100.0 * b / total);
    }
}
