//! Jurisdiction-specific registration forms: a JSON Schema per state that asks for more than the
//! default form, plus the form's UI metadata.

use serde_json::{Value, json};

use crate::model::{JurisdictionForm, TaxType};

use super::{filing_website_url, jurisdictions};

const SCHEMA_DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

fn text(description: &str) -> Value {
    json!({ "type": "string", "minLength": 1, "description": description })
}

fn pattern(description: &str, pattern: &str) -> Value {
    json!({ "type": "string", "pattern": pattern, "description": description })
}

fn choice(description: &str, values: &[&str]) -> Value {
    json!({ "type": "string", "enum": values, "description": description })
}

fn flag(description: &str) -> Value {
    json!({ "type": "boolean", "description": description })
}

fn schema(title: &str, properties: Value, required: &[&str]) -> Value {
    json!({
        "$schema": SCHEMA_DIALECT,
        "title": title,
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

fn business_name() -> Value {
    text("Legal business name exactly as it appears on the state account.")
}

/// The schema of a state with its own form, or `None` for states that use the default form.
fn state_schema(state: &str) -> Option<Value> {
    let schema = match state {
        "CA" => schema(
            "California registration details",
            json!({
                "registration_type": choice(
                    "Remote sellers register for use tax collection; in-state sellers hold a seller's permit.",
                    &["REMOTE_SELLER", "SALES_TAX"],
                ),
                "business_name": business_name(),
                "sales_tax_id": pattern(
                    "CDTFA seller's permit or account number.",
                    "^[0-9]{3}-?[0-9]{6}$",
                ),
                "mfa_completed": flag("Whether multi-factor authentication is set up on the CDTFA online account."),
                "cdtfa_third_party_access_security_code": text(
                    "Security code CDTFA issues to grant a third party access to the account.",
                ),
            }),
            &["registration_type", "business_name", "sales_tax_id"],
        ),
        "ID" => schema(
            "Idaho registration details",
            json!({
                "registration_type": choice("Idaho issues a seller's permit for sales tax.", &["SALES_TAX"]),
                "business_name": business_name(),
                "sales_tax_id": pattern("Idaho seller's permit number.", "^[0-9]{6,9}$"),
                "mfa_completed": flag("Whether multi-factor authentication is set up on the Idaho TAP account."),
                "access_code": text("Third-party access code from the Idaho Taxpayer Access Point."),
            }),
            &["registration_type", "business_name", "sales_tax_id"],
        ),
        "TX" => schema(
            "Texas registration details",
            json!({
                "registration_type": choice(
                    "Remote sellers without a Texas location, or sellers with a place of business in Texas.",
                    &["REMOTE_SELLER", "SALES_TAX"],
                ),
                "business_name": business_name(),
                "texas_taxpayer_number": pattern("11-digit Texas taxpayer number.", "^[0-9]{11}$"),
                "webfile_number": pattern(
                    "WebFile number from the Comptroller's notice, two letters and six digits.",
                    "^[A-Z]{2}[0-9]{6}$",
                ),
                "registered_location_number": pattern(
                    "Outlet (location) number of the permit, if more than one location is registered.",
                    "^[0-9]{1,5}$",
                ),
                "sltr_elected": choice(
                    "Whether the remote seller elected the single local use tax rate.",
                    &["YES", "NO", "UNSURE"],
                ),
            }),
            &[
                "registration_type",
                "business_name",
                "texas_taxpayer_number",
                "webfile_number",
            ],
        ),
        "AL" => schema(
            "Alabama registration details",
            json!({
                "sign_on_id": text("User name of the My Alabama Taxes account."),
                "access_code": text("Access code that lets a third party file on the account."),
                "third_party_password": text("Password of the third-party login on My Alabama Taxes."),
                "sales_tax_id": pattern("Alabama sales tax account number.", "^[A-Z0-9-]{6,15}$"),
                "local_tax_id": pattern(
                    "Account number for locally administered taxes, when the seller has one.",
                    "^[A-Z0-9-]{4,15}$",
                ),
            }),
            &[
                "sign_on_id",
                "access_code",
                "third_party_password",
                "sales_tax_id",
            ],
        ),
        "WA" => schema(
            "Washington registration details",
            json!({
                "business_name": business_name(),
                "ubi_number": pattern("Unified Business Identifier, nine digits.", "^[0-9]{9}$"),
                "my_dor_username": text("User name of the My DOR account."),
                "reseller_permit": flag("Whether the business holds a reseller permit."),
            }),
            &["business_name", "ubi_number"],
        ),
        "NY" => schema(
            "New York registration details",
            json!({
                "business_name": business_name(),
                "certificate_of_authority_number": pattern(
                    "Sales tax vendor identification number on the Certificate of Authority.",
                    "^[0-9A-Z]{9,15}$",
                ),
                "ny_gov_username": text("User name of the Online Services account."),
                "filing_schedule": choice(
                    "Schedule the Department of Taxation and Finance assigned.",
                    &["QUARTERLY", "ANNUAL", "PART_QUARTERLY"],
                ),
            }),
            &["business_name", "certificate_of_authority_number"],
        ),
        _ => return None,
    };
    let mut schema = schema;
    if state == "TX" {
        // An outlet number is needed when the seller has a place of business in Texas.
        schema["if"] = json!({
            "properties": { "registration_type": { "const": "SALES_TAX" } },
            "required": ["registration_type"],
        });
        schema["then"] = json!({ "required": ["registered_location_number"] });
    }
    Some(schema)
}

/// The tax authority's guidance on registering, for the states with their own form.
fn help_article(state: &str) -> Option<&'static str> {
    match state {
        "CA" => Some("https://www.cdtfa.ca.gov/services"),
        "ID" => Some("https://tax.idaho.gov/taxes/sales-use"),
        "TX" => Some("https://comptroller.texas.gov/taxes/sales"),
        "AL" => Some("https://www.revenue.alabama.gov/sales-use"),
        "WA" => Some("https://dor.wa.gov/taxes-rates/sales-use-tax"),
        "NY" => Some("https://www.tax.ny.gov/bus/st/register.htm"),
        _ => None,
    }
}

/// Tax types that can be imported for a jurisdiction.
fn tax_types(country: &str, state: &str) -> Vec<TaxType> {
    match (country, state) {
        ("US", "CO" | "MN") => vec![
            TaxType::SalesTax,
            TaxType::UseTax,
            TaxType::RetailDeliveryFee,
        ],
        ("US", "ID" | "TX" | "NY") => vec![TaxType::SalesAndUseTax],
        ("US", _) => vec![TaxType::SalesTax, TaxType::UseTax],
        _ => vec![TaxType::SalesTax],
    }
}

/// Filing frequencies a jurisdiction assigns.
fn filing_frequencies(country: &str) -> &'static [&'static str] {
    match country {
        "US" => &["MONTHLY", "QUARTERLY", "SEMI_ANNUALLY", "ANNUALLY"],
        "CA" => &["MONTHLY", "QUARTERLY", "ANNUALLY"],
        _ => &["MONTHLY", "QUARTERLY"],
    }
}

/// The registration form of a jurisdiction. See [`super::jurisdiction_form`].
pub(super) fn form(country: &str, state: &str) -> JurisdictionForm {
    let country = country.trim().to_ascii_uppercase();
    let state = state.trim().to_ascii_uppercase();
    let own_schema = if country == "US" {
        state_schema(&state)
    } else {
        None
    };
    let name = jurisdictions::lookup(&country, &state).map(|j| j.name);
    let portal = filing_website_url(&country, &state);
    let help = match own_schema {
        Some(_) => help_article(&state).map_or_else(|| portal.clone(), str::to_owned),
        None => portal.clone(),
    };
    let metadata = json!({
        "jurisdiction_name": name,
        "help_article_url": help,
        "help_article_label": "How to register",
        "portal_url": portal,
        "filing_frequencies": filing_frequencies(&country),
    });
    JurisdictionForm {
        tax_types: tax_types(&country, &state),
        default_form: own_schema.is_none(),
        jurisdiction_fields_json_schema: own_schema.unwrap_or_else(|| json!({})),
        metadata,
        country_code: country,
        state_code: state,
    }
}

/// What is wrong with `fields` against a form's schema: missing required keys, keys the schema
/// does not know, values of the wrong type, empty where `minLength` asks for text, or outside an
/// `enum`. Patterns are not checked. An empty list means the fields pass.
#[cfg(test)]
pub(crate) fn schema_violations(schema: &Value, fields: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    let Some(obj) = fields.as_object() else {
        return vec!["not an object".into()];
    };
    let properties = schema["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    for key in schema["required"].as_array().into_iter().flatten() {
        let key = key.as_str().unwrap_or_default();
        if !obj.contains_key(key) {
            errors.push(format!("missing {key}"));
        }
    }
    for (key, value) in obj {
        let Some(prop) = properties.get(key) else {
            errors.push(format!("unknown {key}"));
            continue;
        };
        let type_ok = match prop["type"].as_str() {
            Some("string") => value.is_string(),
            Some("boolean") => value.is_boolean(),
            _ => true,
        };
        if !type_ok {
            errors.push(format!("{key} has the wrong type"));
        }
        if prop["minLength"].as_u64().is_some_and(|n| n > 0) && value.as_str() == Some("") {
            errors.push(format!("{key} is empty"));
        }
        if let Some(allowed) = prop["enum"].as_array()
            && !allowed.contains(value)
        {
            errors.push(format!("{key} is not one of {allowed:?}"));
        }
    }
    errors
}
