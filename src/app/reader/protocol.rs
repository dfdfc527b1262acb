//! A file read off the page: the request (its bytes travel beside it), the
//! reply, and [`answer`], which reads as the command line does: a network,
//! or a measured profile applied to the network the page holds (so that
//! neither importer weighs on the page's first view).

use serde::{Deserialize, Serialize};

use crate::app::input::keys;
use crate::oracle::formats::{self, parse_shape};
use crate::oracle::{Network, NetworkSpec, OracleError, ParseError, presets};

/// What the page asks: read this file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadRequest {
    /// Which read this is: the page applies the reply to its last one only.
    pub id: u64,
    /// The file's name (its extension tells the format, else its content).
    pub name: String,
    /// The sample's shape typed for a graph whose input sizes are symbolic
    /// (such as `3x224x224`; blank: none).
    pub input_shape: String,
    /// When set, the file is a measured profile (`profile.json`, section
    /// 12) to apply to this network, the one the page holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub onto: Option<Box<NetworkSpec>>,
}

/// What the worker says of a read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReadReply {
    /// The network the file holds, and what it holds in one sentence.
    Read {
        /// The request's id.
        id: u64,
        network: Box<NetworkSpec>,
        /// Layers, parameters, FLOPs and operators merged, for people.
        summary: String,
    },
    /// Why the file could not be read: the importer's message, naming the
    /// line and column or the node.
    Failed {
        /// The request's id.
        id: u64,
        message: String,
    },
}

impl ReadReply {
    /// The id of the request it answers.
    pub fn id(&self) -> u64 {
        match self {
            Self::Read { id, .. } | Self::Failed { id, .. } => *id,
        }
    }
}

/// Reads `bytes`, the file of `request`, with
/// [`formats::network::read_network`] (the command line's reader), or,
/// for a request [`ReadRequest::onto`] a network, applies the profile with
/// [`profiled`].
pub fn answer(request: &ReadRequest, bytes: &[u8]) -> ReadReply {
    if let Some(network) = &request.onto {
        return match profiled(network, &String::from_utf8_lossy(bytes), &request.name) {
            Ok((network, summary)) => ReadReply::Read {
                id: request.id,
                network: Box::new(network),
                summary,
            },
            Err(message) => ReadReply::Failed {
                id: request.id,
                message,
            },
        };
    }
    let read = || -> Result<formats::network::Read, OracleError> {
        let input_shape = match request.input_shape.trim() {
            "" => None,
            text => Some(parse_shape(text).map_err(|p| ParseError::at(1, 1, p))?),
        };
        let hints = formats::network::Hints {
            input_shape,
            ..Default::default()
        };
        formats::network::read_network(bytes, &request.name, &hints)
    };
    match read() {
        Ok(read) => ReadReply::Read {
            id: request.id,
            network: Box::new(read.network.spec()),
            summary: read.summary(&request.name),
        },
        Err(e) => ReadReply::Failed {
            id: request.id,
            message: keys::import_message(&e),
        },
    }
}

/// `network` timed by the measured profile `text` of the file `name`
/// (the contract's section 12), and what the profile covered, in words.
///
/// # Errors
/// The network does not build, or the profile does not read (its line and
/// column) or is of another network (what differs), each message starting
/// with the file's name.
pub fn profiled(network: &NetworkSpec, text: &str, name: &str) -> Result<(NetworkSpec, String), String> {
    let network = Network::new(network.clone()).map_err(|e| format!("{name}: {e}"))?;
    let profile = formats::profile::parse(text).map_err(|e| format!("{name}: {}", keys::import_message(&e.into())))?;
    let applied = formats::profile::apply(&network, &profile, presets::devices::known_gpu)
        .map_err(|e| format!("{name}: {}", keys::import_message(&e)))?;
    let timed = applied.network.layers().len();
    let mut summary = format!(
        "{name}: {timed} layers take their compute from the profile of {} measured on {} at batch {}.",
        profile.name.trim(),
        profile.device.name.trim(),
        profile.batch
    );
    for warning in &applied.warnings {
        summary.push(' ');
        summary.push_str(&warning.to_string());
        summary.push('.');
    }
    Ok((applied.network.spec(), summary))
}

#[cfg(test)]
mod tests {
    use crate::app::planner::protocol::{read, write};
    use crate::app::reader::protocol::*;

    fn request(name: &str, input_shape: &str) -> ReadRequest {
        ReadRequest {
            id: 7,
            name: name.into(),
            input_shape: input_shape.into(),
            onto: None,
        }
    }

    #[test]
    fn a_graph_reads_as_the_command_line_reads_it_and_the_reply_round_trips() {
        let bytes = include_bytes!("../../../tests/onnx/light_squeezenet.onnx");
        let reply = answer(&request("squeezenet.onnx", ""), bytes);
        let expected = formats::network::read_network(bytes, "squeezenet.onnx", &Default::default()).unwrap();
        let ReadReply::Read { id, network, summary } = &reply else {
            panic!("{reply:?}")
        };
        assert_eq!((*id, &**network), (7, &expected.network.spec()));
        assert_eq!(summary, &expected.summary("squeezenet.onnx"));
        assert_eq!(read::<ReadReply>(&write(&reply)).unwrap(), reply);
        let asked = request("squeezenet.onnx", "3x224x224");
        assert_eq!(read::<ReadRequest>(&write(&asked)).unwrap(), asked);
    }

    #[test]
    fn a_profile_is_applied_in_the_worker_to_the_network_sent_with_it() {
        let onnx = include_bytes!("../../../tests/profile/resnet18-cpu-b8/model.onnx");
        let profile = include_bytes!("../../../tests/profile/resnet18-cpu-b8/profile.json");
        let network = formats::network::read_network(onnx, "model.onnx", &Default::default())
            .unwrap()
            .network;
        let asked = ReadRequest {
            onto: Some(Box::new(network.spec())),
            ..request("profile.json", "")
        };
        assert_eq!(read::<ReadRequest>(&write(&asked)).unwrap(), asked);
        let reply = answer(&asked, profile);
        let ReadReply::Read {
            network: timed,
            summary,
            ..
        } = &reply
        else {
            panic!("{reply:?}")
        };
        let expected = formats::profile::apply(
            &network,
            &formats::profile::parse(&String::from_utf8_lossy(profile)).unwrap(),
            presets::devices::known_gpu,
        )
        .unwrap();
        assert_eq!(**timed, expected.network.spec());
        assert!(summary.starts_with("profile.json: "), "{summary}");
        // of another network: refused, the file named
        let other = ReadRequest {
            onto: Some(Box::new(presets::network("alexnet").unwrap().spec())),
            ..request("profile.json", "")
        };
        assert!(
            matches!(answer(&other, profile), ReadReply::Failed { message, .. } if message.starts_with("profile.json: ") && message.contains("another network"))
        );
        let broken = answer(&asked, b"{\"format\": \"paradl-profile/1\"");
        assert!(matches!(broken, ReadReply::Failed { message, .. } if message.starts_with("profile.json: Line 1")));
    }

    #[test]
    fn a_bad_file_or_shape_fails_with_the_importers_message() {
        let bytes = include_bytes!("../../../tests/onnx/light_squeezenet.onnx");
        let reply = answer(&request("cut.onnx", ""), &bytes[..bytes.len() / 3]);
        assert!(
            matches!(&reply, ReadReply::Failed { id: 7, message } if message.starts_with("ONNX graph")),
            "{reply:?}"
        );
        let reply = answer(&request("net.net", ""), b"Dataset|x\nInput|10x3x8x8\n");
        assert!(
            matches!(&reply, ReadReply::Failed { message, .. } if message.starts_with("Line 3")),
            "{reply:?}"
        );
        let reply = answer(&request("squeezenet.onnx", "3xx"), bytes);
        assert!(
            matches!(&reply, ReadReply::Failed { message, .. } if message.starts_with("Line 1, column 1")),
            "{reply:?}"
        );
        let keras = include_str!("../../../tests/keras/lenet.json");
        assert!(matches!(
            answer(&request("pasted text", ""), keras.as_bytes()),
            ReadReply::Read { .. }
        ));
    }
}
