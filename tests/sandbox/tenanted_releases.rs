//! Each release-table row of the mirror and the organizations, in both releases.
