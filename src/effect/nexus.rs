//! Nexus: economic nexus per jurisdiction and its exposure history (Tenanted API), and the
//! physical nexus records with their categories.

use crate::model::filters::{NexusFilter, PhysicalNexusFilter};
use crate::model::tenanted::ExposureEvent;
use crate::model::{
    Nexus, Page, PageParams, PhysicalNexus, PhysicalNexusCategoryInfo, PhysicalNexusCreate,
    PhysicalNexusUpdate,
};

#[derive(Debug, Clone, PartialEq)]
pub enum NexusCall {
    /// Economic nexus per jurisdiction (GET /v1/nexus).
    List {
        filter: NexusFilter,
        page: PageParams,
    },
    Get {
        id: String,
    },
    /// The exposure history of an economic nexus, oldest first.
    ExposureHistory {
        nexus_id: String,
        page: PageParams,
    },
    Physical {
        filter: PhysicalNexusFilter,
        page: PageParams,
    },
    /// The categories offered in a jurisdiction, each saying whether a record uses it.
    PhysicalCategories {
        country: String,
        state: String,
    },
    CreatePhysical {
        body: PhysicalNexusCreate,
    },
    UpdatePhysical {
        id: String,
        body: PhysicalNexusUpdate,
    },
    DeletePhysical {
        id: String,
    },
    /// The trailing 90 days' sales per jurisdiction up to `today`, every page of them: the pace
    /// of the forecast. The first `pages` are asked for at once: the runtime fills in how many
    /// the last reading for this organization had (see [`crate::effect::ReadAheadNote`]).
    Pace {
        today: chrono::NaiveDate,
        pages: u32,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum NexusReply {
    Page(Page<Nexus>),
    One(Nexus),
    ExposureHistory(Page<ExposureEvent>),
    PhysicalPage(Page<PhysicalNexus>),
    PhysicalCategories(Vec<PhysicalNexusCategoryInfo>),
    /// A physical nexus created or updated.
    Physical(PhysicalNexus),
    /// A physical nexus deleted.
    PhysicalDeleted,
    /// The trailing 90 days' sales per jurisdiction, and the pages the transactions took.
    Pace {
        by_place: std::collections::HashMap<crate::checks::Place, crate::model::PeriodActivity>,
        pages: u32,
    },
}

impl NexusCall {
    pub fn is_write(&self) -> bool {
        matches!(
            self,
            NexusCall::CreatePhysical { .. }
                | NexusCall::UpdatePhysical { .. }
                | NexusCall::DeletePhysical { .. }
        )
    }

    pub fn describe(&self) -> String {
        match self {
            NexusCall::List { page, .. } => format!("loading economic nexus (page {})", page.page),
            NexusCall::Get { id } => format!("loading nexus {id}"),
            NexusCall::ExposureHistory { nexus_id, page } => format!(
                "loading the exposure history of {nexus_id} (page {})",
                page.page
            ),
            NexusCall::Physical { page, .. } => {
                format!("loading physical nexus (page {})", page.page)
            }
            NexusCall::PhysicalCategories { country, state } => {
                format!("loading the physical nexus categories of {country}-{state}")
            }
            NexusCall::CreatePhysical { body } => format!(
                "saving a physical nexus in {}-{}",
                body.country_code, body.state_code
            ),
            NexusCall::UpdatePhysical { id, .. } => format!("saving physical nexus {id}"),
            NexusCall::DeletePhysical { id } => format!("deleting physical nexus {id}"),
            NexusCall::Pace { .. } => "reading the last 90 days' sales".to_owned(),
        }
    }
}
