//! Products: the profile's product lines in their variants.

use rand::Rng;

use super::util::{chance, digits, weighted};
use super::{Ctx, Section};
use crate::model::{Product, ProductStatus};

pub fn generate(ctx: &Ctx) -> Vec<Product> {
    let mut rng = ctx.rng(Section::Products);
    let variants = ctx.profile.products.iter().flat_map(|line| {
        line.variants
            .iter()
            .enumerate()
            .map(move |(v, variant)| (line, v, *variant))
    });
    // Lines and variants in turn until the profile's count; a second round adds bundles.
    let rounds = variants
        .clone()
        .chain(variants.map(|(line, v, variant)| (line, v + 10, variant)));
    rounds
        .take(ctx.profile.product_count)
        .enumerate()
        .map(|(i, (line, v, variant))| {
            let bundle = v >= 10;
            let name = match (variant, bundle) {
                ("Standard", false) => line.name.to_owned(),
                (variant, false) => format!("{} - {variant}", line.name),
                (variant, true) => format!("{} - {variant} (bundle)", line.name),
            };
            let sku = format!("{}-{:03}", line.sku, v * 10 + 100);
            let status = weighted(
                &mut rng,
                &[
                    (ProductStatus::Approved, 70),
                    (ProductStatus::PartiallyApproved, 10),
                    (ProductStatus::Pending, 15),
                    (ProductStatus::Archived, 5),
                ],
            )
            .clone();
            let source = *weighted(&mut rng, &[("API", 50), ("IMPORT", 30), ("CUSTOM", 20)]);
            let connected = source == "API";
            let classification_failed = status == ProductStatus::Pending && chance(&mut rng, 1, 3);
            Product {
                id: ctx.id("prod", i + 1),
                external_id: format!("shop-{}", 40_000 + i * 13 + rng.random_range(0..13)),
                sku: if chance(&mut rng, 1, 5) {
                    vec![sku.clone(), format!("UPC{}", digits(&mut rng, 12))]
                } else {
                    vec![sku.clone()]
                },
                code: sku,
                name,
                description: line.description.to_owned(),
                status,
                product_category: if classification_failed {
                    "UNKNOWN".to_owned()
                } else {
                    line.category.to_owned()
                },
                product_subcategory: if classification_failed {
                    "UNKNOWN".to_owned()
                } else {
                    line.subcategory.to_owned()
                },
                tax_exempt: matches!(line.subcategory, "GIFT_CARD" | "MISCELLANEOUS_EXEMPT"),
                source: Some(source.to_owned()),
                // Every product came in through a connection: the API key's, an import's or
                // the one for products entered by hand.
                connection_id: Some(format!(
                    "conn_demo{}_{:02}",
                    ctx.org_index + 1,
                    match source {
                        "API" => 1,
                        "IMPORT" => 2,
                        _ => 3,
                    }
                )),
                classification_failed,
                store_name: connected.then(|| "Online store".to_owned()),
                source_taxonomy_type: None,
                source_taxonomy_code: None,
                source_taxonomy_id: None,
                source_taxonomy_name: None,
                source_taxonomy_categories: None,
                source_taxonomy_metadata: None,
            }
        })
        .collect()
}
