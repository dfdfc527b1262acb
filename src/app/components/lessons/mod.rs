//! The lessons: the list, a lesson's box, and a student's guess.

pub mod guess_form;
pub mod lesson_box;
pub mod lessons_list;
