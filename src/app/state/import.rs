//! Importing a network: the reducer's side. A file (dropped, uploaded,
//! pasted or fetched from a `?model=` link) becomes a pending read, which
//! the page hands to the Web Worker ([`crate::app::reader`]); its reply
//! becomes the network (and the profile dropped with it is applied), or an
//! error next to the import, the view kept.

use std::rc::Rc;

use crate::app::reader::protocol::{ReadReply, ReadRequest};
use crate::app::state::AppState;
use crate::app::state::model_editor::{self, ModelEditor};
use crate::oracle::NetworkSpec;

/// Where a file to read came from: what its reply is for.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadOrigin {
    /// Dropped or uploaded (with, perhaps, a profile to apply after it).
    Files,
    /// Pasted as text.
    Paste,
    /// Fetched from a link's `?model=ADDRESS`.
    Linked(String),
    /// A measured profile applied to the network the page holds; what the
    /// network read with it said, if one was.
    Profile(Option<String>),
}

/// A file handed to the worker, and what to do with its network.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingRead {
    /// The request (its id, the file's name and the typed input shape).
    pub request: ReadRequest,
    /// The file.
    pub bytes: Rc<[u8]>,
    /// A measured profile dropped with it: its bytes and name.
    pub profile: Option<(Rc<[u8]>, String)>,
    /// Where it came from.
    pub origin: ReadOrigin,
}

impl AppState {
    /// Dropped or uploaded files: the first network is read (in the
    /// worker), the first profile applied to it once read, or at once to
    /// the current network when no network came with it.
    pub(super) fn read_files(&mut self, files: Vec<(Rc<[u8]>, String)>, input_shape: String) {
        let (profiles, networks): (Vec<_>, Vec<_>) = files
            .into_iter()
            .partition(|(bytes, _)| model_editor::is_profile(bytes));
        let profile = profiles.into_iter().next();
        match networks.into_iter().next() {
            Some((bytes, name)) => self.begin_read((name, input_shape), bytes, profile, None, ReadOrigin::Files),
            None => {
                if let Some((bytes, name)) = profile {
                    self.apply_profile(bytes, name, None);
                }
            }
        }
    }

    /// Hands a file to the worker (a profile with the network it times,
    /// `onto`): it is read when the page sends it there, and a newer read
    /// replaces this one.
    pub(super) fn begin_read(
        &mut self,
        (name, input_shape): (String, String),
        bytes: Rc<[u8]>,
        profile: Option<(Rc<[u8]>, String)>,
        onto: Option<Box<NetworkSpec>>,
        origin: ReadOrigin,
    ) {
        self.reads += 1;
        self.reading = Some(Rc::new(PendingRead {
            request: ReadRequest {
                id: self.reads,
                name,
                input_shape,
                onto,
            },
            bytes,
            profile,
            origin,
        }));
    }

    /// The worker's reply to the pending read (a reply to an older one is
    /// ignored): the network and its summary, then the profile dropped
    /// with it; or the reason, the view kept.
    pub(super) fn finish_read(&mut self, reply: ReadReply) {
        let Some(pending) = self.reading.take_if(|p| p.request.id == reply.id()) else {
            return;
        };
        let name = &pending.request.name;
        match (reply, &pending.origin) {
            (ReadReply::Read { network, summary, .. }, ReadOrigin::Profile(network_summary)) => {
                self.model = Rc::new(ModelEditor::from_spec(&network, None));
                self.import_error = None;
                self.import_summary = Some(match network_summary {
                    Some(network) => format!("{network} {summary}"),
                    None => summary,
                });
            }
            (ReadReply::Failed { message, .. }, ReadOrigin::Profile(network_summary)) => {
                self.import_summary = network_summary.clone();
                self.import_error = Some(message);
            }
            (ReadReply::Read { network, summary, .. }, origin) => {
                let editor = ModelEditor::from_spec(&network, None);
                self.import_summary = Some(match origin {
                    ReadOrigin::Paste => editor.summary("the pasted network"),
                    _ => summary,
                });
                self.model = Rc::new(editor);
                self.import_error = None;
                self.applied = self.run.use_own_convergence(None);
                if let Some((bytes, profile_name)) = pending.profile.clone() {
                    let network_summary = self.import_summary.take();
                    self.apply_profile(bytes, profile_name, network_summary);
                }
            }
            (ReadReply::Failed { message, .. }, ReadOrigin::Paste) => self.import_error = Some(message),
            (ReadReply::Failed { message, .. }, ReadOrigin::Files) => {
                self.import_error = Some(format!("{name}: {message}"));
            }
            (ReadReply::Failed { message, .. }, ReadOrigin::Linked(address)) => {
                self.import_error = Some(format!("{name}: {message}"));
                self.notice = Some(format!(
                    "The network at {address} is not a file this tool reads ({message}), so the view is unchanged."
                ));
            }
        }
    }

    /// Hands a measured profile to the worker, to time the current network
    /// by it; `network_summary` is what the network read with it gave,
    /// said first. A network that does not build is said at once.
    fn apply_profile(&mut self, bytes: Rc<[u8]>, name: String, network_summary: Option<String>) {
        match self.model.to_profile(&name) {
            Ok(network) => self.begin_read(
                (name, String::new()),
                bytes,
                None,
                Some(Box::new(network)),
                ReadOrigin::Profile(network_summary),
            ),
            Err(message) => {
                self.import_summary = network_summary;
                self.import_error = Some(message);
            }
        }
    }
}
