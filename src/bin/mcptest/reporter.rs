//! The verdict reporter (`mcp.reporter.setUpload`, `mcp.reporter.flush`):
//! while on, every `mcp.call` verdict is kept; a flush appends the kept ones
//! to the path, one `Verdict` JSON line each, in call order; turning it off
//! discards what was not flushed.

use std::io::Write;

use mcptest_coprocess::envelope::invalid_params;
use mcptest_coprocess::frames::{error_codes, ErrorObject, ReporterFlushResult, ReporterSetUploadParams, ReporterStatus, Verdict};
use mcptest_coprocess::ndjson::encode_line;

#[derive(Default)]
pub struct Reporter {
    path: Option<String>,
    pending: Vec<Verdict>,
}

fn open_for_append(path: &str) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new().create(true).append(true).open(path)
}

impl Reporter {
    fn status(&self) -> ReporterStatus {
        ReporterStatus { enabled: self.path.is_some(), path: self.path.clone(), pending: self.pending.len() as u64 }
    }

    /// Turns reporting on (the path must be writable: it is opened for append now) or off.
    pub fn set_upload(&mut self, params: ReporterSetUploadParams) -> Result<ReporterStatus, ErrorObject> {
        if !params.enabled {
            self.path = None;
            self.pending.clear();
            return Ok(self.status());
        }
        let Some(path) = params.path else {
            return Err(invalid_params("`path` is required when `enabled` is true"));
        };
        open_for_append(&path).map_err(|e| invalid_params(&format!("`path` {path:?} cannot be opened for append: {e}")))?;
        self.path = Some(path);
        Ok(self.status())
    }

    /// Keeps a verdict, when reporting is on.
    pub fn keep(&mut self, verdict: &Verdict) {
        if self.path.is_some() {
            self.pending.push(verdict.clone());
        }
    }

    /// Appends the kept verdicts to the path; on a write error they stay kept.
    pub fn flush(&mut self) -> Result<ReporterFlushResult, ErrorObject> {
        let Some(path) = self.path.clone() else {
            return Ok(ReporterFlushResult { written: 0, path: None });
        };
        let lines: String = self.pending.iter().map(encode_line).collect();
        open_for_append(&path).and_then(|mut file| file.write_all(lines.as_bytes())).map_err(|e| ErrorObject {
            code: error_codes::INTERNAL_ERROR,
            message: format!("cannot append the verdicts to {path:?}: {e}; they are kept for the next flush"),
            data: None,
        })?;
        let written = std::mem::take(&mut self.pending).len() as u64;
        Ok(ReporterFlushResult { written, path: Some(path) })
    }
}
