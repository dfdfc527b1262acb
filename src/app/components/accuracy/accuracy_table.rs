//! The mean accuracy of each way of predicting, per strategy and overall.

use std::rc::Rc;

use yew::prelude::*;

use crate::oracle::units;
use crate::oracle::validation::{Accuracy, Method, Report};

/// Props of [`AccuracyTable`].
#[derive(Properties, Clone)]
pub struct AccuracyTableProps {
    pub report: Rc<Report>,
}

impl PartialEq for AccuracyTableProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.report, &other.report)
    }
}

fn row(a: &Accuracy) -> Html {
    let name = a.strategy.map_or("all", |s| s.name());
    html! {
        <tr data-strategy={name}>
            <th scope="row">{ name }</th>
            <td class="num">{ a.runs }</td>
            { for Method::ALL.map(|m| {
                let value = a.get(m);
                html! {
                    <td class="num" data-method={m.name()} data-accuracy={value.map(|v| v.to_string()).unwrap_or_default()}>
                        { value.map_or("–".to_string(), units::percent) }
                    </td>
                }
            }) }
        </tr>
    }
}

/// The table.
#[function_component(AccuracyTable)]
pub fn accuracy_table(props: &AccuracyTableProps) -> Html {
    let r = &props.report;
    html! {
        // it scrolls sideways on a phone: reachable by the keyboard
        <table id="accuracy-table" tabindex="0">
            <caption>{ "Mean accuracy, min(predicted/measured, measured/predicted): 100% is exact, 50% off by 2 times" }</caption>
            <thead><tr>
                <th scope="col">{ "strategy" }</th><th scope="col">{ "runs" }</th>
                { for Method::ALL.map(|m| html! { <th scope="col">{ m.label() }</th> }) }
            </tr></thead>
            <tbody>
                { for r.by_strategy.iter().map(row) }
                { row(&r.overall) }
            </tbody>
        </table>
    }
}
