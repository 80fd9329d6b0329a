//! Names, streets and places that demo records are built from.

/// A US place: state, city, county, ZIP code, telephone area code.
pub struct UsPlace {
    pub state: &'static str,
    pub city: &'static str,
    pub county: &'static str,
    pub zip: &'static str,
    pub area: &'static str,
}

const fn p(
    state: &'static str,
    city: &'static str,
    county: &'static str,
    zip: &'static str,
    area: &'static str,
) -> UsPlace {
    UsPlace {
        state,
        city,
        county,
        zip,
        area,
    }
}

pub static US_PLACES: &[UsPlace] = &[
    p("AL", "Birmingham", "Jefferson", "35203", "205"),
    p("AZ", "Phoenix", "Maricopa", "85004", "602"),
    p("AZ", "Tucson", "Pima", "85701", "520"),
    p("CA", "San Francisco", "San Francisco", "94105", "415"),
    p("CA", "Los Angeles", "Los Angeles", "90013", "213"),
    p("CA", "San Diego", "San Diego", "92101", "619"),
    p("CA", "Ontario", "San Bernardino", "91761", "909"),
    p("CA", "Sacramento", "Sacramento", "95814", "916"),
    p("CO", "Denver", "Denver", "80202", "303"),
    p("CO", "Boulder", "Boulder", "80302", "303"),
    p("CT", "Hartford", "Hartford", "06103", "860"),
    p("FL", "Miami", "Miami-Dade", "33131", "305"),
    p("FL", "Orlando", "Orange", "32801", "407"),
    p("FL", "Tampa", "Hillsborough", "33602", "813"),
    p("GA", "Atlanta", "Fulton", "30303", "404"),
    p("GA", "Savannah", "Chatham", "31401", "912"),
    p("ID", "Boise", "Ada", "83702", "208"),
    p("IL", "Chicago", "Cook", "60601", "312"),
    p("IL", "Naperville", "DuPage", "60540", "630"),
    p("IN", "Indianapolis", "Marion", "46204", "317"),
    p("KY", "Louisville", "Jefferson", "40202", "502"),
    p("MA", "Boston", "Suffolk", "02110", "617"),
    p("MA", "Cambridge", "Middlesex", "02139", "617"),
    p("MD", "Baltimore", "Baltimore City", "21202", "410"),
    p("MI", "Detroit", "Wayne", "48226", "313"),
    p("MI", "Grand Rapids", "Kent", "49503", "616"),
    p("MN", "Minneapolis", "Hennepin", "55401", "612"),
    p("MO", "St. Louis", "St. Louis City", "63101", "314"),
    p("NC", "Charlotte", "Mecklenburg", "28202", "704"),
    p("NC", "Raleigh", "Wake", "27601", "919"),
    p("NJ", "Newark", "Essex", "07102", "973"),
    p("NJ", "Jersey City", "Hudson", "07302", "201"),
    p("NV", "Las Vegas", "Clark", "89101", "702"),
    p("NV", "Reno", "Washoe", "89501", "775"),
    p("NY", "New York", "New York", "10001", "212"),
    p("NY", "Brooklyn", "Kings", "11201", "718"),
    p("NY", "Buffalo", "Erie", "14202", "716"),
    p("OH", "Columbus", "Franklin", "43215", "614"),
    p("OH", "Cleveland", "Cuyahoga", "44113", "216"),
    p("OR", "Portland", "Multnomah", "97204", "503"),
    p("PA", "Philadelphia", "Philadelphia", "19103", "215"),
    p("PA", "Pittsburgh", "Allegheny", "15222", "412"),
    p("SC", "Charleston", "Charleston", "29401", "843"),
    p("TN", "Nashville", "Davidson", "37203", "615"),
    p("TN", "Memphis", "Shelby", "38103", "901"),
    p("TX", "Austin", "Travis", "78701", "512"),
    p("TX", "Dallas", "Dallas", "75201", "214"),
    p("TX", "Houston", "Harris", "77002", "713"),
    p("TX", "San Antonio", "Bexar", "78205", "210"),
    p("UT", "Salt Lake City", "Salt Lake", "84101", "801"),
    p("VA", "Richmond", "Richmond City", "23219", "804"),
    p("VA", "Arlington", "Arlington", "22201", "703"),
    p("WA", "Seattle", "King", "98101", "206"),
    p("WA", "Spokane", "Spokane", "99201", "509"),
    p("WA", "Tacoma", "Pierce", "98402", "253"),
    p("WI", "Milwaukee", "Milwaukee", "53202", "414"),
    p("WI", "Madison", "Dane", "53703", "608"),
];

/// Places in states where demo sales are shipped to but no demo customer lives (kept apart so
/// the customers drawn from [`US_PLACES`] stay as they are).
pub static US_SALE_PLACES: &[UsPlace] = &[
    p("LA", "New Orleans", "Orleans", "70112", "504"),
    p("OK", "Oklahoma City", "Oklahoma", "73102", "405"),
    p("IA", "Des Moines", "Polk", "50309", "515"),
    p("NM", "Albuquerque", "Bernalillo", "87102", "505"),
    p("NE", "Omaha", "Douglas", "68102", "402"),
];

/// Places outside the US where demo sales are shipped to but no demo customer lives.
pub static WORLD_SALE_PLACES: &[WorldPlace] = &[w("GB", "LND", "London", "EC1A 1BB", "+44 20 ")];

/// Where demo sale `n` to `country` (and `state`, when the sale names one) is shipped: a city
/// and postal code of that jurisdiction and a street, the same for the same `n`. `None` where the
/// tables know no place there.
pub fn sale_place(
    country: &str,
    state: &str,
    n: u32,
) -> Option<(String, &'static str, &'static str)> {
    let n = n as usize;
    let (city, postal) = if country == "US" {
        let here: Vec<&UsPlace> = US_PLACES
            .iter()
            .chain(US_SALE_PLACES)
            .filter(|p| p.state == state)
            .collect();
        let place = here.get(n % here.len().max(1))?;
        (place.city, place.zip)
    } else {
        let here: Vec<&WorldPlace> = CA_PLACES
            .iter()
            .chain(EU_PLACES)
            .chain(WORLD_SALE_PLACES)
            .filter(|p| p.country == country && (state.is_empty() || p.state == state))
            .collect();
        let place = here.get(n % here.len().max(1))?;
        (place.city, place.postal)
    };
    let street = format!(
        "{} {} {}",
        100 + n % 9_000,
        STREETS[n % STREETS.len()],
        STREET_KINDS[n % STREET_KINDS.len()]
    );
    Some((street, city, postal))
}

/// A place outside the US: country, subdivision code (ISO 3166-2), city, postal code and the
/// telephone prefix used to write local numbers.
pub struct WorldPlace {
    pub country: &'static str,
    pub state: &'static str,
    pub city: &'static str,
    pub postal: &'static str,
    pub phone: &'static str,
}

const fn w(
    country: &'static str,
    state: &'static str,
    city: &'static str,
    postal: &'static str,
    phone: &'static str,
) -> WorldPlace {
    WorldPlace {
        country,
        state,
        city,
        postal,
        phone,
    }
}

pub static CA_PLACES: &[WorldPlace] = &[
    w("CA", "ON", "Toronto", "M5V 2T6", "+1 416-555-01"),
    w("CA", "ON", "Ottawa", "K1P 5J2", "+1 613-555-01"),
    w("CA", "BC", "Vancouver", "V6B 1A1", "+1 604-555-01"),
    w("CA", "QC", "Montreal", "H2Y 1C6", "+1 514-555-01"),
    w("CA", "AB", "Calgary", "T2P 1J9", "+1 403-555-01"),
    w("CA", "SK", "Regina", "S4P 3Y2", "+1 306-555-01"),
    w("CA", "MB", "Winnipeg", "R3C 4T3", "+1 204-555-01"),
    w("CA", "NS", "Halifax", "B3J 1S9", "+1 902-555-01"),
];

pub static EU_PLACES: &[WorldPlace] = &[
    w("DE", "BE", "Berlin", "10115", "+49 30 "),
    w("DE", "BY", "Munich", "80331", "+49 89 "),
    w("FR", "IDF", "Paris", "75002", "+33 1 "),
    w("IE", "D", "Dublin", "D02 X285", "+353 1 "),
    w("NL", "NH", "Amsterdam", "1012 AB", "+31 20 "),
    w("ES", "MD", "Madrid", "28013", "+34 91 "),
    w("IT", "MI", "Milan", "20121", "+39 02 "),
    w("AT", "9", "Vienna", "1010", "+43 1 "),
    w("PL", "14", "Warsaw", "00-001", "+48 22 "),
    w("BE", "BRU", "Brussels", "1000", "+32 2 "),
];

pub static FIRST_NAMES: &[&str] = &[
    "Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "James", "Isabella", "Lucas",
    "Mia", "Mateo", "Amelia", "Benjamin", "Harper", "Henry", "Evelyn", "Theodore", "Aria", "Jack",
    "Chloe", "Samuel", "Priya", "Arjun", "Mei", "Hiroshi", "Fatima", "Omar", "Sofia", "Diego",
    "Camille", "Lukas", "Ingrid", "Marco", "Zoe", "Nathan", "Grace", "Daniel", "Hannah", "Kwame",
];

pub static LAST_NAMES: &[&str] = &[
    "Smith",
    "Johnson",
    "Williams",
    "Brown",
    "Garcia",
    "Miller",
    "Davis",
    "Rodriguez",
    "Martinez",
    "Hernandez",
    "Lopez",
    "Wilson",
    "Anderson",
    "Thomas",
    "Taylor",
    "Moore",
    "Jackson",
    "Martin",
    "Lee",
    "Thompson",
    "White",
    "Harris",
    "Clark",
    "Lewis",
    "Walker",
    "Young",
    "Patel",
    "Nguyen",
    "Kim",
    "Chen",
    "Okafor",
    "Schneider",
    "Dubois",
    "Rossi",
    "Novak",
    "Murphy",
    "Tremblay",
    "Fischer",
    "Haddad",
    "Sato",
];

pub static COMPANY_STEMS: &[&str] = &[
    "Northwind",
    "Bluegate",
    "Ironwood",
    "Silver Creek",
    "Pinecrest",
    "Harborview",
    "Redline",
    "Summit Peak",
    "Brightwater",
    "Cobalt",
    "Granite State",
    "Evergreen",
    "Maple Leaf",
    "Crescent",
    "Riverside",
    "Oakridge",
    "Lakeshore",
    "Sunbelt",
    "Prairie Wind",
    "Copperfield",
    "Westbrook",
    "Fairhaven",
    "Stonebridge",
    "Highland",
    "Bayside",
    "Keystone",
    "Meridian",
    "Trailhead",
    "Cedar Point",
    "Juniper",
];

pub static COMPANY_KINDS: &[&str] = &[
    "Supply",
    "Electric",
    "Security",
    "Property Management",
    "Facilities",
    "Health",
    "Schools",
    "Logistics",
    "Hospitality",
    "Builders",
    "Hardware",
    "Labs",
    "Networks",
    "Wholesale",
    "Distributors",
    "Medical Group",
    "Foundation",
    "Outfitters",
    "Market",
    "Systems",
];

pub static COMPANY_SUFFIXES: &[&str] = &["LLC", "Inc.", "Co.", "Corp.", "Ltd.", "Group"];

pub static STREETS: &[&str] = &[
    "Main",
    "Oak",
    "Pine",
    "Maple",
    "Cedar",
    "Elm",
    "Washington",
    "Lake",
    "Hill",
    "Park",
    "Market",
    "Mission",
    "Broadway",
    "Spring",
    "Highland",
    "Union",
    "Franklin",
    "Church",
    "Water",
    "Commerce",
];

pub static STREET_KINDS: &[&str] = &["St", "Ave", "Blvd", "Rd", "Way", "Dr", "Ln", "Pkwy"];
