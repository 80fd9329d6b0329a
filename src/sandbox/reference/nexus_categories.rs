//! Physical nexus category descriptors and which of them each region offers.

use crate::model::PhysicalNexusCategory as C;

/// A category with its title, one-sentence description and an example.
pub(super) struct Descriptor {
    pub category: C,
    pub title: &'static str,
    pub description: &'static str,
    pub example: &'static str,
}

const fn d(
    category: C,
    title: &'static str,
    description: &'static str,
    example: &'static str,
) -> Descriptor {
    Descriptor {
        category,
        title,
        description,
        example,
    }
}

/// Categories offered for US states.
pub(super) static US: [Descriptor; 9] = [
    d(
        C::PhysicalBusinessLocation,
        "Physical business location",
        "An office, store, showroom or other place of business the company operates in the state.",
        "A retail store or sales office in Denver.",
    ),
    d(
        C::TelecommutingOrRemoteEmployee,
        "Telecommuting or remote employee",
        "An employee who regularly works from a home or co-working space located in the state.",
        "A software engineer working full time from home in Austin.",
    ),
    d(
        C::WarrantyAndRepairServices,
        "Warranty and repair services",
        "Staff or agents who perform warranty, repair or installation work for customers in the state.",
        "A technician who repairs devices at customer sites in Ohio.",
    ),
    d(
        C::CatalogueDistributionOrAdvertisingMaterial,
        "Catalogue or advertising distribution",
        "Catalogues, flyers or other advertising material distributed in the state by the company or on its behalf.",
        "Quarterly product catalogues mailed to customers in Illinois.",
    ),
    d(
        C::DeliveryByCommonCarrier,
        "Delivery by common carrier",
        "Goods shipped into the state using a common carrier such as a parcel service or freight company.",
        "Orders shipped to Georgia customers by a national parcel carrier.",
    ),
    d(
        C::DeliveryByOwnVehicles,
        "Delivery by own vehicles",
        "Goods delivered to customers in the state using vehicles owned or leased by the company.",
        "A company van delivering furniture to buyers in New Jersey.",
    ),
    d(
        C::InStateSalesPerson,
        "In-state salesperson",
        "An employee who solicits orders or meets customers while present in the state.",
        "An account executive visiting clients in Seattle each month.",
    ),
    d(
        C::IndependentContractorOrThirdPartySalesPerson,
        "Independent contractor or third-party sales representative",
        "A contractor or agent who sells, installs or promotes the company's products in the state.",
        "A commissioned sales agent representing the brand in Florida.",
    ),
    d(
        C::WarehouseAndInventoryPresence,
        "Warehouse or inventory",
        "Inventory stored in the state, in the company's own warehouse or at a third-party fulfilment centre.",
        "Stock held in a fulfilment centre near Dallas.",
    ),
];

/// Categories offered for Canada and its provinces.
pub(super) static CANADA: [Descriptor; 8] = [
    d(
        C::EmployeesAgentsContractors,
        "Employees, agents or contractors",
        "People working for the business in Canada, whether employed, contracted or acting as agents.",
        "A sales agent in Toronto who negotiates contracts for the company.",
    ),
    d(
        C::OwnLeaseAProperty,
        "Owned or leased property",
        "Real property in Canada that the business owns or leases, such as an office or a shop.",
        "A leased office suite in Vancouver.",
    ),
    d(
        C::Inventory,
        "Inventory",
        "Goods kept in Canada for sale, whether in the business's own premises or with a third party.",
        "Stock held in a third-party warehouse in Mississauga.",
    ),
    d(
        C::DeliveryUsingCompanyVehicles,
        "Delivery using company vehicles",
        "Goods delivered to Canadian customers with vehicles the business owns or leases.",
        "A company truck delivering orders across Quebec.",
    ),
    d(
        C::OwnBusinessInfrastructureAndEquipment,
        "Business infrastructure and equipment",
        "Equipment or infrastructure in Canada that the business owns and uses to carry on its activity.",
        "Servers owned by the company in a Montreal data centre.",
    ),
    d(
        C::OnSiteInstallationMaintenanceServices,
        "On-site installation or maintenance",
        "Installation, maintenance or repair work the business performs at customer sites in Canada.",
        "Technicians installing equipment for clients in Calgary.",
    ),
    d(
        C::FrequentParticipationInTradeShowsEvents,
        "Frequent trade shows or events",
        "Regular participation in trade shows, markets or events in Canada where sales are made.",
        "Selling at several consumer shows in Ontario every year.",
    ),
    d(
        C::ManufactureOrProductionInCanada,
        "Manufacture or production in Canada",
        "Goods manufactured, produced or assembled in Canada by or for the business.",
        "A contract manufacturer in Winnipeg assembling the company's devices.",
    ),
];

/// Categories offered for EU member states, the one-stop shop and other countries.
pub(super) static INTERNATIONAL: [Descriptor; 10] = [
    d(
        C::PhysicalBusinessLocation,
        "Physical business location",
        "An office, branch, shop or other fixed place of business operated in the country.",
        "A branch office in Dublin.",
    ),
    d(
        C::PermanentEstablishment,
        "Permanent establishment",
        "A fixed place of business with the staff and technical resources to supply or receive services in the country.",
        "A staffed support centre in Lisbon serving European customers.",
    ),
    d(
        C::PerformingServicesInTheJurisdiction,
        "Performing services in the country",
        "Services carried out physically in the country by the business's own staff or subcontractors.",
        "Consultants delivering on-site training in Munich.",
    ),
    d(
        C::ManufacturingFacilities,
        "Manufacturing facilities",
        "A plant or workshop in the country where the business's goods are made or assembled.",
        "A packaging line operated in Poland.",
    ),
    d(
        C::ServersDataCenters,
        "Servers or data centres",
        "Servers or other computing equipment located in the country and controlled by the business.",
        "Dedicated servers in a Frankfurt data centre.",
    ),
    d(
        C::DigitalInfrastructureLocalized,
        "Localised digital infrastructure",
        "Digital infrastructure deployed specifically for the country's market, such as local points of presence.",
        "A content delivery node in Amsterdam serving Dutch users.",
    ),
    d(
        C::TradeShowPresence,
        "Trade show presence with sales",
        "Attendance at trade fairs or exhibitions in the country where goods are sold or orders are taken.",
        "Selling devices from a stand at a Paris trade fair.",
    ),
    d(
        C::TradeShowPresenceWithoutSales,
        "Trade show presence without sales",
        "Attendance at trade fairs or exhibitions in the country for promotion only, with no sales made there.",
        "A demonstration booth at a Milan design week.",
    ),
    d(
        C::EnterContractsWithLocals,
        "Contracts concluded with local parties",
        "Staff or agents in the country who habitually conclude contracts on the business's behalf.",
        "A dependent agent in Madrid signing distribution agreements.",
    ),
    d(
        C::ConsignmentStockArrangements,
        "Consignment stock",
        "Goods placed in the country on consignment with a customer who draws on them as needed.",
        "Spare parts held at a customer's warehouse in Belgium until used.",
    ),
];
