//! Front end stub (replaced by the real one).
use std::path::{Path, PathBuf};
#[derive(Clone, Debug, Default)]
pub struct FrontendOptions {
    pub clang: Option<PathBuf>,
    pub defines: Vec<String>,
    pub include_dirs: Vec<PathBuf>,
    pub kernel: Option<String>,
}
#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    #[error("clang failed")]
    Clang { stderr: String },
}
pub fn load(_path: &Path, _opts: &FrontendOptions) -> Result<crate::ir::Program, FrontendError> {
    Err(FrontendError::Clang { stderr: String::new() })
}
