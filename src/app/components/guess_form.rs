//! `.guess`: a student's guess at a lesson's question before the results
//! are revealed: the best strategy (none picked until the student picks
//! one) and, if wished, its epoch, or a reveal without guessing.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::use_app;
use crate::app::input::quantity;
use crate::app::state::Guess;
use crate::app::state::action::{Action, PageAction};
use crate::oracle::Strategy;

/// An epoch as typed: empty (no guess of it), seconds, or why not.
fn epoch(text: &str) -> Result<Option<f64>, String> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    match quantity::parse(text, "s", 1.0) {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(Some(s)),
        Ok(_) => Err("An epoch takes more than 0 s".into()),
        Err(_) => Err("Not a time: write it as 5 min, 90 s or 2 h (or leave it empty)".into()),
    }
}

/// The guess form.
#[function_component(GuessForm)]
pub fn guess_form() -> Html {
    let strategy = use_state(|| None::<Strategy>);
    let time = use_state(String::new);
    let Some(state) = use_app() else {
        return html! {};
    };
    let onstrategy = {
        let strategy = strategy.clone();
        Callback::from(move |e: Event| {
            strategy.set(e.target_unchecked_into::<HtmlSelectElement>().value().parse().ok());
        })
    };
    let ontime = {
        let time = time.clone();
        Callback::from(move |e: InputEvent| time.set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let seconds = epoch(&time);
    let guess = match (*strategy, &seconds) {
        (Some(strategy), Ok(seconds)) => Some(Guess {
            strategy,
            seconds: *seconds,
        }),
        _ => None,
    };
    let onguess = match guess {
        Some(g) => state.send::<MouseEvent>(Action::Page(PageAction::Guess(g))),
        None => Callback::noop(),
    };
    let onreveal = state.send::<MouseEvent>(Action::Page(PageAction::Reveal));
    html! {
        <div class="guess">
            <label for="guess-strategy">{ "Your guess: the best strategy" }</label>
            <select id="guess-strategy" onchange={onstrategy}>
                <option value="" selected={strategy.is_none()} disabled=true>{ "pick one" }</option>
                { for Strategy::ALL.iter().map(|s| html! { <option value={s.name()} selected={*strategy == Some(*s)}>{ s.label() }</option> }) }
            </select>
            <label for="guess-time">{ "and its epoch (e.g. 5 min; optional)" }</label>
            <input id="guess-time" type="text" value={(*time).clone()} oninput={ontime}
                aria-invalid={seconds.is_err().to_string()} aria-describedby="guess-time-error" />
            if let Err(e) = &seconds { <p class="error" id="guess-time-error" role="alert">{ e }</p> }
            <button type="button" id="guess" onclick={onguess} disabled={guess.is_none()}>{ "Commit my guess and reveal" }</button>
            <button type="button" id="reveal" class="quiet" onclick={onreveal}>{ "Reveal without guessing" }</button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_epoch_is_a_time_or_nothing_and_says_why_not() {
        assert_eq!(epoch(""), Ok(None));
        assert_eq!(epoch("90 s"), Ok(Some(90.0)));
        assert_eq!(epoch("5 min"), Ok(Some(300.0)));
        assert!(epoch("banana").is_err_and(|e| e.starts_with("Not a time")));
        assert!(epoch("0").is_err());
    }
}
