//! What the page shows beside its numbers: the model's contract by
//! section ([`contract`]), the files shipped beside the page
//! ([`shipped_files`]), the model's track record ([`track_record`]) and the
//! glossary's words ([`glossary`]).

pub mod contract;
pub mod glossary;
pub mod shipped_files;
pub mod track_record;
