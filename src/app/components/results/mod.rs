//! The results: the summary, the ranking, findings and why the best wins,
//! explanations of every number, the strategy's diagram and exports.

pub mod after_ranking;
pub mod bar_inputs;
pub mod edition_note;
pub mod explain_button;
pub mod explain_panel;
pub mod explained_sentence;
pub mod explanation_view;
pub mod exports;
pub mod findings;
pub mod fix_line;
pub mod ranking_row;
pub mod ranking_table;
pub mod results_view;
pub mod strategy_diagram;
pub mod summary_bar;
pub mod track_badge;
pub mod verdict;
pub mod why_wins;
