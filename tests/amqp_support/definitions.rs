//! `deploy/rabbitmq/definitions.json`, the compose stack's broker objects,
//! imported into a throwaway vhost of the local broker with
//! `rabbitmqctl import_definitions`: its queues, exchanges, bindings and
//! policies as the compose stack's RabbitMQ loads them, with guest allowed
//! in, deleted (vhost and user) when dropped, however the test ends.

use serde_json::Value as Json;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

pub struct DefinitionsVhost {
    /// The vhost's name, also the name of the user the definitions create.
    pub vhost: String,
    /// An AMQP URL as guest into the vhost.
    pub url: String,
    /// The definitions as imported (names rewritten to the vhost).
    pub defs: Json,
}

fn definitions_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("deploy/rabbitmq/definitions.json")
}

/// Is a local RabbitMQ there for `rabbitmqctl`?
pub fn rabbitmqctl_works() -> bool {
    Command::new("rabbitmqctl")
        .args(["-q", "status"])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn rabbitmqctl(args: &[&str]) -> String {
    let out = Command::new("rabbitmqctl")
        .args(args)
        .output()
        .expect("running rabbitmqctl");
    assert!(
        out.status.success(),
        "rabbitmqctl {} failed:\n{}\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

impl DefinitionsVhost {
    /// Imports the definitions into a new vhost named after `tag`; `None`,
    /// with a note, when there is no local broker `rabbitmqctl` can reach.
    /// Returns once every queue and binding of the file is there (the
    /// import is asynchronous).
    pub fn import(tag: &str) -> Option<Self> {
        if !rabbitmqctl_works() {
            eprintln!(
                "note: no local RabbitMQ (rabbitmqctl status failed); skipping the definitions import"
            );
            return None;
        }
        let vhost = super::unique("lsdeploy", tag);
        // Deleted on drop from here on, even if the import fails half-way.
        let mut this = DefinitionsVhost {
            url: format!("amqp://guest:guest@127.0.0.1:5672/{vhost}"),
            vhost: vhost.clone(),
            defs: Json::Null,
        };
        let text = std::fs::read_to_string(definitions_path()).expect("reading definitions.json");
        let mut defs: Json = serde_json::from_str(&text).expect("definitions.json parses");
        defs["vhosts"] = serde_json::json!([{ "name": vhost }]);
        for section in ["permissions", "policies", "exchanges", "queues", "bindings"] {
            for object in defs[section].as_array_mut().expect(section) {
                object["vhost"] = Json::from(vhost.as_str());
            }
        }
        defs["users"][0]["name"] = Json::from(vhost.as_str());
        defs["permissions"][0]["user"] = Json::from(vhost.as_str());
        defs["permissions"]
            .as_array_mut()
            .expect("permissions")
            .push(serde_json::json!({
                "user": "guest", "vhost": vhost, "configure": ".*", "write": ".*", "read": ".*"
            }));
        let file = std::env::temp_dir().join(format!("{vhost}-definitions.json"));
        std::fs::write(&file, serde_json::to_vec(&defs).expect("JSON")).expect("temp file");
        rabbitmqctl(&[
            "import_definitions",
            file.to_str().expect("UTF-8 temp path"),
        ]);
        let _ = std::fs::remove_file(&file);
        this.defs = defs;
        this.wait_for_everything();
        Some(this)
    }

    /// The names in one section of the definitions (`queues`, ...).
    fn names(&self, section: &str) -> Vec<String> {
        self.defs[section]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|o| o["name"].as_str().map(String::from))
            .collect()
    }

    fn wait_for_everything(&self) {
        let queues = self.names("queues");
        let bindings: Vec<String> = self.defs["bindings"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|b| {
                format!(
                    "{}\t{}\t{}",
                    b["source"].as_str().unwrap_or(""),
                    b["destination"].as_str().unwrap_or(""),
                    b["routing_key"].as_str().unwrap_or("")
                )
            })
            .collect();
        let mut listing = String::new();
        for _ in 0..60 {
            listing = self.list_queues(&["name"]);
            let bound = self.list_bindings();
            let have_queues = queues
                .iter()
                .all(|q| listing.lines().any(|l| l.trim() == q));
            let have_bindings = bindings.iter().all(|b| bound.lines().any(|l| l == b));
            if have_queues && have_bindings {
                return;
            }
            std::thread::sleep(Duration::from_millis(500));
        }
        panic!("the definitions' queues and bindings never all appeared:\n{listing}");
    }

    /// `rabbitmqctl list_queues` of the vhost with these columns.
    pub fn list_queues(&self, columns: &[&str]) -> String {
        let mut args = vec!["-q", "list_queues", "-p", &self.vhost];
        args.extend_from_slice(columns);
        rabbitmqctl(&args)
    }

    /// Bindings as `source\tdestination\trouting key` lines.
    pub fn list_bindings(&self) -> String {
        rabbitmqctl(&[
            "-q",
            "list_bindings",
            "-p",
            &self.vhost,
            "source_name",
            "destination_name",
            "routing_key",
        ])
    }
}

impl Drop for DefinitionsVhost {
    fn drop(&mut self) {
        let _ = Command::new("rabbitmqctl")
            .args(["-q", "delete_vhost", &self.vhost])
            .output();
        let _ = Command::new("rabbitmqctl")
            .args(["-q", "delete_user", &self.vhost])
            .output();
    }
}
