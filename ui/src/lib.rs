//! minotty UI.
