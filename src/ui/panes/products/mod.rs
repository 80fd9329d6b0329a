//! The Products pane: the paged list with the service's filters (products that need
//! classification marked, and one key away), the detail of one product, the new-product form
//! and the edit form, their category and subcategory chosen from the service's catalog.

mod columns;
mod detail;
mod filter;
mod forms;

use std::sync::Arc;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

pub use self::columns::columns;
use self::forms::Catalog;
use crate::effect::{Call, Failure, Goto, ProductCall, ProductReply, Reply};
use crate::model::Product;
use crate::model::filters::ProductFilter;
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, PaneHint};
use crate::ui::skeleton::list_spec;
use crate::ui::skeleton::{
    Destination, NoLayer, Operation, PaneSpec, PaneView, Parts, RecordDetail, RecordView, Requests,
    Scope, Screen, Skeleton, may_write, open_detail, refused, unexpected,
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

/// The detail of one product.
pub type ProductDetail = RecordDetail<Product>;

static PRODUCT: RecordView<Product> = RecordView {
    id: |p| &p.id,
    title: |p| display_name(p).to_owned(),
    build: |record, theme, _| detail::build(record, theme),
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
    Save,
}

impl Operation for Op {
    fn scope(&self) -> Scope {
        match self {
            Op::Record => Scope::Detail,
            Op::Catalog(_) | Op::Create | Op::Save => Scope::Pane,
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
        if !may_write(ctx) {
            return;
        }
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

    /// The product to edit: the one in the detail, else the selected row.
    fn current(parts: &Parts<Self>) -> Option<Product> {
        match parts.screen.detail() {
            Some(d) => Some(d.record.clone()),
            None => parts.list.selected().cloned(),
        }
    }

    fn open_edit(&mut self, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        match Self::current(parts) {
            Some(p) => self.open(Wanted::Edit(Box::new(p)), parts, ctx),
            None => ctx.notify(Level::Info, "Select a product first."),
        }
    }

    fn saved(&mut self, product: &Product, created: bool, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let verb = if created { "created" } else { "saved" };
        ctx.notify(
            Level::Success,
            format!("Product {} {verb}.", display_name(product)),
        );
        parts.list.replace(product);
        open_detail(self, parts, product, ctx);
        parts.list.reload_at(Some(product.id.clone()), ctx);
    }
}

impl PaneSpec for Products {
    type List = ProductList;
    type Detail = ProductDetail;
    type View = ProductForm;
    type Overlay = NoLayer;
    type Op = Op;

    const TITLE: &'static str = "Products";
    const RESOURCE: Option<crate::model::Resource> = Some(crate::model::Resource::Products);
    const FILTER: &'static str = "filter";

    fn detail(&self, row: &Product) -> ProductDetail {
        RecordDetail::new(row.clone(), &PRODUCT)
    }

    fn load_detail(&mut self, detail: &ProductDetail, requests: &mut Requests<Op>, ctx: &mut Ctx) {
        let id = detail.record.id.clone();
        requests.call(ctx, Call::Products(ProductCall::Get { id }), Op::Record);
    }

    fn goto(&self, goto: &Goto) -> Option<Destination<Self>> {
        match goto {
            Goto::Products { filter, open } => Some((filter.clone(), open.clone())),
            _ => None,
        }
    }

    fn list_hints(&self, _: &Parts<Self>) -> Vec<PaneHint> {
        vec![
            PaneHint::action(Action::NeedsClassification, "needs classification"),
            PaneHint::action(Action::New, "new product"),
            PaneHint::action(Action::Edit, "edit"),
        ]
    }

    fn detail_hints(&self, _: &Parts<Self>) -> Vec<PaneHint> {
        vec![
            PaneHint::action(Action::Edit, "edit"),
            PaneHint::action(Action::New, "new product"),
        ]
    }

    fn action(&mut self, action: Action, parts: &mut Parts<Self>, ctx: &mut Ctx) -> bool {
        if parts.screen.view().is_some() {
            return false;
        }
        match (action, &parts.screen) {
            (Action::New, _) => self.open(Wanted::Create, parts, ctx),
            (Action::Edit, _) => self.open_edit(parts, ctx),
            (Action::NeedsClassification, Screen::List) => {
                let filter = filter::needs_classification(parts.list.filter());
                parts.list.apply_filter(filter, ctx);
            }
            _ => return false,
        }
        true
    }

    fn submit(&mut self, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let Some(catalog) = self.catalog.clone() else {
            return;
        };
        let Parts {
            screen, requests, ..
        } = parts;
        match screen.view_mut() {
            Some(ProductForm::Create(form)) => match forms::create_body(&form.values(), &catalog) {
                Ok(body) => {
                    form.set_busy(true);
                    requests.call(
                        ctx,
                        Call::Products(ProductCall::Create { body }),
                        Op::Create,
                    );
                }
                Err(errors) => form.set_errors(&errors),
            },
            Some(ProductForm::Edit { product, form }) => {
                match forms::edit_body(&form.values(), product, &catalog) {
                    Ok(body) if body == crate::model::ProductWrite::default() => {
                        ctx.notify(Level::Info, "Nothing changed.");
                    }
                    Ok(body) => {
                        form.set_busy(true);
                        let id = product.id.clone();
                        requests.call(
                            ctx,
                            Call::Products(ProductCall::Update { id, body }),
                            Op::Save,
                        );
                    }
                    Err(errors) => form.set_errors(&errors),
                }
            }
            None => {}
        }
    }

    fn receive(
        &mut self,
        op: Op,
        result: Result<Reply, Failure>,
        parts: &mut Parts<Self>,
        ctx: &mut Ctx,
    ) {
        match (op, result) {
            (Op::Catalog(wanted), Ok(Reply::Products(ProductReply::Categories(catalog)))) => {
                self.catalog = Some(Arc::new(catalog));
                self.open(wanted, parts, ctx);
            }
            (Op::Create, Ok(Reply::Products(ProductReply::One(p)))) => {
                self.saved(&p, true, parts, ctx);
            }
            (Op::Save, Ok(Reply::Products(ProductReply::One(p)))) => {
                self.saved(&p, false, parts, ctx);
            }
            (Op::Record, Ok(Reply::Products(ProductReply::One(p)))) => {
                parts.list.replace(&p);
                if let Some(d) = parts.screen.detail_mut() {
                    d.record = p;
                }
            }
            (Op::Create | Op::Save, Err(failure)) => {
                let form = parts.screen.view_mut().and_then(PaneView::form_mut);
                refused(form, &failure, ctx);
            }
            (Op::Record | Op::Catalog(_), Err(failure)) => {
                ctx.notify(Level::Error, failure.message);
            }
            (op, Ok(reply)) => unexpected(&format!("{op:?}"), &reply, ctx),
        }
    }

    fn commands(&self) -> Vec<&'static str> {
        vec!["new", "edit", "unclassified"]
    }

    fn command(&mut self, name: &str, _: &[&str], parts: &mut Parts<Self>, ctx: &mut Ctx) -> bool {
        match name {
            "new" => self.open(Wanted::Create, parts, ctx),
            "edit" => self.open_edit(parts, ctx),
            "unclassified" => {
                let filter = filter::needs_classification(parts.list.filter());
                parts.list.apply_filter(filter, ctx);
            }
            _ => return false,
        }
        true
    }
}
