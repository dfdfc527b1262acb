#![cfg(not(target_arch = "wasm32"))]
#[path = "support/web.rs"]
mod web;
use serde_json::Value;
use std::io::{Read, Write};

async fn cdp(driver: &web::Driver, client: &fantoccini::Client, cmd: &str, params: Value) -> Value {
    let session = client.session_id().await.ok().flatten().expect("a session");
    let address = driver.url.trim_start_matches("http://").to_string();
    let body = serde_json::json!({ "cmd": cmd, "params": params }).to_string();
    let request = format!(
        "POST /session/{session}/goog/cdp/execute HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = std::net::TcpStream::connect(&address).expect("chromedriver");
    stream.write_all(request.as_bytes()).expect("sent");
    let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(60)));
    let mut answer = Vec::new();
    let mut chunk = [0u8; 65536];
    loop {
        if let Some(end) = answer.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&answer[..end]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| {
                    l.strip_prefix("content-length:")
                        .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                })
                .unwrap_or(0);
            if answer.len() >= end + 4 + length {
                return serde_json::from_slice(&answer[end + 4..end + 4 + length]).unwrap_or(Value::Null);
            }
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&chunk[..n]),
        }
    }
    Value::Null
}

#[tokio::test(flavor = "multi_thread")]
#[ignore]
async fn profile_load() {
    let page = std::env::var("PAGE").unwrap_or_default();
    let port = web::serve(std::path::PathBuf::from(std::env::var("PARADL_DIST").unwrap()));
    let driver = web::driver();
    let client = web::browser(&driver).await;
    for (cmd, params) in [
        ("Network.enable", serde_json::json!({})),
        ("Network.setCacheDisabled", serde_json::json!({ "cacheDisabled": true })),
        (
            "Network.emulateNetworkConditions",
            serde_json::json!({"offline": false, "latency": 150, "downloadThroughput": 200000, "uploadThroughput": 93750}),
        ),
        ("Emulation.setCPUThrottlingRate", serde_json::json!({ "rate": 4 })),
        (
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({ "width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": true }),
        ),
        ("Profiler.enable", serde_json::json!({})),
        ("Profiler.setSamplingInterval", serde_json::json!({"interval": 100})),
        ("Profiler.start", serde_json::json!({})),
    ] {
        cdp(&driver, &client, cmd, params).await;
    }
    client
        .goto(&format!("http://127.0.0.1:{port}/{page}"))
        .await
        .expect("loaded");
    tokio::time::sleep(std::time::Duration::from_secs(10)).await;
    let marks = client
        .execute(
            "return performance.getEntriesByType('mark').map(m => [m.name, m.startTime]);",
            vec![],
        )
        .await
        .unwrap();
    println!("marks {marks}");
    let v = cdp(&driver, &client, "Profiler.stop", serde_json::json!({})).await;
    let profile = &v["value"]["profile"];
    let nodes = profile["nodes"].as_array().cloned().unwrap_or_default();
    let samples = profile["samples"].as_array().cloned().unwrap_or_default();
    let deltas = profile["timeDeltas"].as_array().cloned().unwrap_or_default();
    let mut by_id = std::collections::HashMap::new();
    let mut parent = std::collections::HashMap::new();
    for n in &nodes {
        let id = n["id"].as_i64().unwrap();
        by_id.insert(id, n["callFrame"]["functionName"].as_str().unwrap_or("").to_string());
        for c in n["children"].as_array().cloned().unwrap_or_default() {
            parent.insert(c.as_i64().unwrap(), id);
        }
    }
    let mut selft: std::collections::HashMap<String, f64> = Default::default();
    let mut incl: std::collections::HashMap<String, f64> = Default::default();
    for (s, d) in samples.iter().zip(deltas.iter()) {
        let ms = d.as_f64().unwrap_or(0.0) / 1000.0;
        let mut id = s.as_i64().unwrap();
        *selft.entry(by_id[&id].clone()).or_default() += ms;
        let mut seen = std::collections::HashSet::new();
        loop {
            let name = by_id[&id].clone();
            let short: String = name.split("::h").next().unwrap_or("").chars().take(140).collect();
            if seen.insert(short.clone()) {
                *incl.entry(short).or_default() += ms;
            }
            match parent.get(&id) {
                Some(p) => id = *p,
                None => break,
            }
        }
    }
    let mut v: Vec<_> = selft.into_iter().collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1));
    println!("SELF");
    for (k, ms) in v.iter().take(30) {
        println!("{ms:8.1} ms  {}", k.chars().take(150).collect::<String>());
    }
    let mut v: Vec<_> = incl
        .into_iter()
        .filter(|(k, _)| k.contains("paradl") || k.contains("yew") || k.contains("plotters"))
        .collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1));
    println!("INCLUSIVE");
    for (k, ms) in v.iter().take(70) {
        println!("{ms:8.1} ms  {k}");
    }
    client.close().await.ok();
}
