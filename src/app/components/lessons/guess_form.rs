//! `.guess`: a student's guess at a lesson's question before the results
//! are revealed, of the kind the question asks (yes or no; the fastest
//! strategy, none picked until the student picks one, and if wished its
//! epoch; which strategies fit, none checked meaning none), or a reveal
//! without guessing.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::app::components::use_app;
use crate::app::input::quantity;
use crate::app::lessons::guess::{Asks, Guess, Strategies};
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

/// What the form asks.
#[derive(Properties, PartialEq)]
pub struct GuessProps {
    /// The kind of guess the lesson's question asks.
    pub asks: Asks,
}

/// A yes-or-no guess, its two answers' words.
fn yes_no(chosen: &UseStateHandle<Option<bool>>, (yes_words, no_words): (&'static str, &'static str)) -> Html {
    let choice = |yes: bool, id: &'static str, text: &'static str| {
        let checked = **chosen == Some(yes);
        let chosen = chosen.clone();
        let onchange = Callback::from(move |_: Event| chosen.set(Some(yes)));
        html! {
            <label class="choice" for={id}>
                <input type="radio" id={id} name="guess-halving" {checked} {onchange} />
                { text }
            </label>
        }
    };
    html! {
        <fieldset class="guess-choices">
            <legend>{ "Your guess" }</legend>
            { choice(true, "guess-yes", yes_words) }
            { choice(false, "guess-no", no_words) }
        </fieldset>
    }
}

#[function_component(GuessForm)]
pub fn guess_form(props: &GuessProps) -> Html {
    let strategy = use_state(|| None::<Strategy>);
    let time = use_state(String::new);
    let halving = use_state(|| None::<bool>);
    let fit = use_state(Strategies::default);
    let Some(state) = use_app() else {
        return html! {};
    };
    let (fields, guess) = match props.asks {
        Asks::KeepsHalving => (
            yes_no(&halving, ("Yes, it keeps halving", "No, it stops halving")),
            halving.map(Guess::KeepsHalving),
        ),
        Asks::FastestIsGreenest => (
            yes_no(&halving, ("Yes, they take the least", "No, fewer GPUs take less")),
            halving.map(Guess::FastestIsGreenest),
        ),
        Asks::WhichFit => {
            let choice = |s: Strategy| {
                let checked = fit.contains(s);
                let fit = fit.clone();
                let onchange = Callback::from(move |e: Event| {
                    fit.set(fit.with(s, e.target_unchecked_into::<HtmlInputElement>().checked()));
                });
                let id = format!("guess-fit-{}", s.name());
                html! {
                    <label class="choice" for={id.clone()}>
                        <input type="checkbox" {id} {checked} {onchange} />
                        { s.label() }
                    </label>
                }
            };
            let fields = html! {
                <fieldset class="guess-choices">
                    <legend>{ "Your guess: the strategies that fit (none checked: none fits)" }</legend>
                    { for Strategy::ALL.into_iter().map(choice) }
                </fieldset>
            };
            (fields, Some(Guess::Fit(*fit)))
        }
        Asks::Fastest => {
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
                (Some(strategy), Ok(seconds)) => Some(Guess::Fastest {
                    strategy,
                    seconds: *seconds,
                }),
                _ => None,
            };
            let fields = html! { <>
                <label for="guess-strategy">{ "Your guess: the fastest strategy" }</label>
                <select id="guess-strategy" onchange={onstrategy}>
                    <option value="" selected={strategy.is_none()} disabled=true>{ "pick one" }</option>
                    { for Strategy::ALL.iter().map(|s| html! { <option value={s.name()} selected={*strategy == Some(*s)}>{ s.label() }</option> }) }
                </select>
                <label for="guess-time">{ "and its epoch (e.g. 5 min; optional)" }</label>
                <input id="guess-time" type="text" value={(*time).clone()} oninput={ontime}
                    aria-invalid={seconds.is_err().to_string()} aria-describedby="guess-time-error" />
                if let Err(e) = &seconds { <p class="error" id="guess-time-error" role="alert">{ e }</p> }
            </> };
            (fields, guess)
        }
    };
    let onguess = match guess {
        Some(g) => state.send::<MouseEvent>(Action::Page(PageAction::Guess(g))),
        None => Callback::noop(),
    };
    let onreveal = state.send::<MouseEvent>(Action::Page(PageAction::Reveal));
    html! {
        <div class="guess">
            { fields }
            <button type="button" id="guess" onclick={onguess} disabled={guess.is_none()}>{ "Commit my guess and reveal" }</button>
            <button type="button" id="reveal" class="quiet" onclick={onreveal}>{ "Reveal without guessing" }</button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use crate::app::components::lessons::guess_form::*;

    #[test]
    fn an_epoch_is_a_time_or_nothing_and_says_why_not() {
        assert_eq!(epoch(""), Ok(None));
        assert_eq!(epoch("90 s"), Ok(Some(90.0)));
        assert_eq!(epoch("5 min"), Ok(Some(300.0)));
        assert!(epoch("banana").is_err_and(|e| e.starts_with("Not a time")));
        assert!(epoch("0").is_err());
    }
}
