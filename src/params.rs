//! Parameter studies (placeholder).
