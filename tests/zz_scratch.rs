use paradl::app::input::document::Document;
use paradl::app::lessons::LESSONS;
use paradl::app::results::Results;
use paradl::app::state::AppState;
use std::rc::Rc;
use std::time::Instant;

#[test]
fn scratch_times() {
    let mut docs = vec![("default".to_string(), Document::default())];
    for l in &LESSONS {
        docs.push((l.id.to_string(), (l.inputs)()));
    }
    for (name, doc) in docs {
        let q = doc.question.clone();
        let t = Instant::now();
        let sc = q.scenario().unwrap();
        let t1 = t.elapsed();
        let r = Results::compute(&q, &sc).unwrap();
        let t2 = t.elapsed();
        let other = r.other_sweep(&sc);
        let t3 = t.elapsed();
        let sd = paradl::app::charts::scaling::data(&r, other);
        let _ = paradl::app::charts::scaling::draw(&sd, 430).unwrap();
        let t4 = t.elapsed();
        let md = paradl::app::charts::memory::data(&r, &r.strategies);
        let _ = paradl::app::charts::memory::draw(&md).unwrap();
        let t5 = t.elapsed();
        let cd = paradl::app::charts::comparison::data(&r, &r.strategies);
        let _ = paradl::app::charts::comparison::draw(&cd).unwrap();
        let t6 = t.elapsed();
        let st = Rc::new(AppState::new(doc.clone(), None));
        let t7 = t.elapsed();
        let enc = paradl::app::url::encode(&doc);
        let t8 = t.elapsed();
        let _ = paradl::app::url::decode(&enc);
        let t9 = t.elapsed();
        println!(
            "{name}: scenario {:?} compute {:?} other_sweep {:?} scaling {:?} memory {:?} comparison {:?} appstate {:?} encode {:?} decode {:?}",
            t1,
            t2 - t1,
            t3 - t2,
            t4 - t3,
            t5 - t4,
            t6 - t5,
            t7 - t6,
            t8 - t7,
            t9 - t8
        );
        drop(st);
    }
}
