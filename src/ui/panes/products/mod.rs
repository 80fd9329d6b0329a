//! The Products pane: the paged list with the service's filters (products that need
//! classification marked, and one key away), the detail of one product (what is left to do
//! about its classification), the new-product form and the edit form, their category and
//! subcategory chosen from the service's catalog; the edit of a product that needs
//! classification classifies it, and the footer says where it then stands.

mod columns;
mod detail;
mod filter;
mod forms;

use std::sync::Arc;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

pub use self::columns::columns;
use self::forms::Catalog;
use crate::effect::{Call, ProductCall, ProductReply, Reply};
use crate::model::Product;
use crate::model::filters::ProductFilter;
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level};
use crate::ui::skeleton::list_spec;
use crate::ui::skeleton::{
    Answer, NoLayer, On, Operation, PaneSpec, PaneView, Parts, Reads, RecordView, Scope, Skeleton,
    Verb, open_detail, send_form, unexpected,
};
use crate::ui::theme::Theme;
use crate::ui::widgets::form::Form;

/// The Products pane.
pub type ProductsPane = Skeleton<Products>;

list_spec! {
    /// The product list.
    ProductList {
        row: Product,
        filter: ProductFilter,
        noun: "products",
        columns: columns,
        call: Products(ProductCall::List),
        page: ProductReply::Page,
        describe: filter::describe,
        form: filter::filter_form,
        filter_of: |values, current| filter::filter_of(values, current),
        goto: Products,
    }
}

/// A product's name for messages: the name, else the id.
fn display_name(p: &Product) -> &str {
    if p.name.trim().is_empty() {
        &p.id
    } else {
        &p.name
    }
}

/// What the footer says once the service answered a create or an edit: for a product that
/// needed classification, where it now stands.
fn saved_message(p: &Product, op: &Op) -> String {
    let name = display_name(p);
    match op {
        Op::Save { classifying: true } if p.needs_classification() => format!(
            "Product {name} sent for review: the service holds it {} until it approves it.",
            p.status
        ),
        Op::Save { classifying: true } => format!(
            "Product {name} classified: {}, nothing left to do.",
            p.status
        ),
        Op::Create => format!("Product {name} created."),
        _ => format!("Product {name} saved."),
    }
}

static PRODUCT: RecordView<Product> = RecordView {
    id: |p| &p.id,
    title: |p| display_name(p).to_owned(),
    build: |record, (), theme, keys, _| detail::build(record, theme, keys),
};

/// The pane's forms.
pub enum ProductForm {
    Create(Form),
    Edit { product: Box<Product>, form: Form },
}

impl PaneView for ProductForm {
    fn form(&self) -> Option<&Form> {
        match self {
            ProductForm::Create(form) | ProductForm::Edit { form, .. } => Some(form),
        }
    }

    fn form_mut(&mut self) -> Option<&mut Form> {
        match self {
            ProductForm::Create(form) | ProductForm::Edit { form, .. } => Some(form),
        }
    }

    fn subtitle(&self) -> String {
        match self {
            ProductForm::Create(_) => "new product".to_owned(),
            ProductForm::Edit { product, .. } if product.needs_classification() => {
                format!("classify {} (saving approves it)", display_name(product))
            }
            ProductForm::Edit { product, .. } => format!("edit {}", display_name(product)),
        }
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        if let Some(form) = self.form_mut() {
            form.render(area, buf, theme);
        }
    }
}

/// The form to open once the catalog is in.
#[derive(Debug)]
pub enum Wanted {
    Create,
    Edit(Box<Product>),
}

/// What the pane waits for.
#[derive(Debug)]
pub enum Op {
    /// The current record of the product in the detail.
    Record,
    /// The catalog, then the form to open.
    Catalog(Wanted),
    Create,
    /// An edit; `classifying` when the product needed classification.
    Save {
        classifying: bool,
    },
}

impl Operation for Op {
    fn scope(&self) -> Scope {
        match self {
            Op::Record => Scope::Detail,
            Op::Catalog(_) | Op::Create | Op::Save { .. } => Scope::Pane,
        }
    }
}

/// What is the Products pane's own: the catalog, once read.
#[derive(Default)]
pub struct Products {
    catalog: Option<Catalog>,
}

impl Products {
    /// Opens `wanted`'s form, reading the catalog first when it is not in yet.
    fn open(&mut self, wanted: Wanted, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let Some(catalog) = &self.catalog else {
            parts.requests.call(
                ctx,
                Call::Products(ProductCall::Categories),
                Op::Catalog(wanted),
            );
            return;
        };
        let view = match wanted {
            Wanted::Create => ProductForm::Create(forms::create_form(catalog)),
            Wanted::Edit(product) => ProductForm::Edit {
                form: forms::edit_form(catalog, &product),
                product,
            },
        };
        parts.screen.open(view);
    }

    /// The form of the product in the detail, else of the selected row.
    fn open_edit(&mut self, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        match parts.current().cloned() {
            Some(p) => self.open(Wanted::Edit(Box::new(p)), parts, ctx),
            None => ctx.notify(Level::Info, "Select a product first."),
        }
    }

    /// `!` or `:unclassified`: the products that need classification.
    fn unclassified(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let filter = filter::needs_classification(parts.list.filter());
        parts.list.apply_filter(filter, ctx);
    }

    /// The service's answer to a create or an edit: said, the detail opened on it (and read
    /// again), the list read again where it was.
    fn saved(product: &Product, op: &Op, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        ctx.notify(Level::Success, saved_message(product, op));
        parts.list.replace(product);
        open_detail(parts, product, ctx);
        parts.list.reload_at(Some(product.id.clone()), ctx);
    }
}

impl PaneSpec for Products {
    type List = ProductList;
    type Extra = ();
    type View = ProductForm;
    type Overlay = NoLayer;
    type Op = Op;

    const TITLE: &'static str = "Products";
    const DETAIL: &'static RecordView<Product> = &PRODUCT;
    const RESOURCE: Option<crate::model::Resource> = Some(crate::model::Resource::Products);
    const FILTER: &'static str = "filter";

    const VERBS: &'static [Verb<Self>] = &[
        Verb::key(
            Action::NeedsClassification,
            "needs classification",
            On::List,
            |v| {
                Self::unclassified(v.parts, v.ctx);
            },
        )
        .also("unclassified"),
        Verb::key(Action::Edit, "edit or classify", On::Both, |v| {
            Self::open_edit(v.spec, v.parts, v.ctx);
        })
        .also("edit")
        .writes(),
        Verb::key(Action::New, "new product", On::Both, |v| {
            Self::open(v.spec, Wanted::Create, v.parts, v.ctx);
        })
        .also("new")
        .writes()
        .starts_new(),
    ];

    const DETAIL_READS: Reads<Product, Op> =
        |p| vec![(ProductCall::Get { id: p.id.clone() }.into(), Op::Record)];

    fn submit(&mut self, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let Some(catalog) = self.catalog.clone() else {
            return;
        };
        let (view, requests) = parts.view_and_requests();
        match view {
            Some(ProductForm::Create(form)) => {
                let body = forms::create_body(&form.values(), &catalog);
                send_form(form, body, requests, ctx, |body| {
                    (Call::Products(ProductCall::Create { body }), Op::Create)
                });
            }
            Some(ProductForm::Edit { product, form }) => {
                match forms::edit_body(&form.values(), product, &catalog).transpose() {
                    None => ctx.notify(Level::Info, "Nothing changed."),
                    Some(body) => {
                        let id = product.id.clone();
                        let classifying = product.needs_classification();
                        send_form(form, body, requests, ctx, |body| {
                            (
                                Call::Products(ProductCall::Update { id, body }),
                                Op::Save { classifying },
                            )
                        });
                    }
                }
            }
            None => {}
        }
    }

    fn receive(&mut self, op: Op, result: Answer, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        match (op, result) {
            (Op::Catalog(wanted), Ok(Reply::Products(ProductReply::Categories(catalog)))) => {
                self.catalog = Some(Arc::new(catalog));
                self.open(wanted, parts, ctx);
            }
            (op @ (Op::Create | Op::Save { .. }), Ok(Reply::Products(ProductReply::One(p)))) => {
                Self::saved(&p, &op, parts, ctx);
            }
            (Op::Record, Ok(Reply::Products(ProductReply::One(p)))) => parts.record_read(p),
            (Op::Create | Op::Save { .. }, Err(failure)) => parts.refused(&failure, ctx),
            (Op::Record | Op::Catalog(_), Err(failure)) => {
                ctx.notify(Level::Error, failure.message);
            }
            (op, Ok(reply)) => unexpected(&format!("{op:?}"), &reply, ctx),
        }
    }
}
