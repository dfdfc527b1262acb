//! Files picked or dropped on the page: read together, then imported in
//! one action (a network and the profile measured for it).

use std::cell::RefCell;
use std::rc::Rc;

use gloo::file::callbacks::FileReader;

use crate::app::components::AppHandle;
use crate::app::state::action::{Action, ModelAction, PageAction};

/// Files being read, kept alive until they are.
pub type Reading = Rc<RefCell<Vec<FileReader>>>;

/// A file read: its bytes and name.
type ReadFile = (Rc<[u8]>, String);

/// Files read at most from one pick or drop (a network and its profile).
const MAX_FILES: u32 = 4;

/// Reads picked or dropped files and imports them together once all are
/// read (the reducer tells a profile, an ONNX graph, a `.keras` archive
/// and the text formats apart).
pub fn load(list: web_sys::FileList, shape: String, state: AppHandle, reader: &Reading) {
    let count = list.length().min(MAX_FILES);
    let read: Rc<RefCell<Vec<ReadFile>>> = Rc::new(RefCell::new(Vec::new()));
    let mut tasks = reader.borrow_mut();
    tasks.clear();
    for file in (0..count).filter_map(|i| list.get(i)) {
        let name = file.name();
        let (read, state, shape) = (Rc::clone(&read), state.clone(), shape.clone());
        let task = gloo::file::callbacks::read_as_bytes(&gloo::file::File::from(file), move |result| match result {
            Ok(bytes) => {
                let all = {
                    let mut read = read.borrow_mut();
                    read.push((bytes.into(), name));
                    (read.len() == count as usize).then(|| read.clone())
                };
                if let Some(files) = all {
                    state.dispatch(Action::Model(ModelAction::Files(files, shape)));
                }
            }
            Err(e) => state.dispatch(Action::Page(PageAction::Notify(format!(
                "{name} could not be read: {e}"
            )))),
        });
        tasks.push(task);
    }
}
