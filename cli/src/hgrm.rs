//! `picollo hgrm`: HdrHistogram's percentile distribution (`.hgrm`) of the selected
//! intervals' sum, the text HdrHistogram's plotters read.

use picollo::HgrmOptions;

use crate::error::Failure;
use crate::input::Input;
use crate::select::{self, Filter};

/// The `.hgrm` text (or its CSV form) of what `filter` selects.
pub fn hgrm(input: &Input, filter: &Filter, options: &HgrmOptions) -> Result<String, Failure> {
    let selected = select::sum(input, filter)?;
    Ok(selected.histogram.view().to_hgrm(options))
}
