//! The page around the panels: the app's shell and its sections, the share
//! bar, history, notices, the glossary and contract views, and the small
//! widgets every panel uses (fields, folding sections, linked words).

pub mod after_first_frame;
pub mod app;
pub mod glossary;
pub mod history;
pub mod input_section;
pub mod lazy_details;
pub mod media;
pub mod model_doc_view;
pub mod notice;
pub mod number_field;
pub mod preset_options;
pub mod reading;
pub mod select_field;
pub mod share_bar;
pub mod shipped_text;
pub mod stale_note;
pub mod term;
