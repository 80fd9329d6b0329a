//! Carries out the calls panes ask for, with the client, and words their failures for users.

use crate::api::{ApiError, Client};
use crate::effect::{
    Call, Failure, FailureKind, FileCall, FileReply, OrganizationCall, OrganizationReply, Reply,
};
use crate::os::files::{self, Refusal, RefusalKind};

mod customers;
mod exemptions;
mod filings;
mod nexus;
mod products;
mod registrations;
mod transactions;

/// Makes one call: each resource's calls are carried out by the module of the same name.
pub async fn execute(client: &Client, call: Call) -> Result<Reply, Failure> {
    let result = match call {
        Call::Registrations(call) => registrations::execute(client, call).await.map(Reply::from),
        Call::Nexus(call) => nexus::execute(client, call).await.map(Reply::from),
        Call::Customers(call) => customers::execute(client, call).await.map(Reply::from),
        Call::Exemptions(call) => return exemptions::execute(client, call).await.map(Reply::from),
        Call::Filings(call) => filings::execute(client, call).await.map(Reply::from),
        Call::Transactions(call) => transactions::execute(client, call).await.map(Reply::from),
        Call::Products(call) => products::execute(client, call).await.map(Reply::from),
        Call::Organizations(OrganizationCall::List { page }) => client
            .list_organizations(page)
            .await
            .map(|p| Reply::Organizations(OrganizationReply::Page(p))),
        Call::ForOrganization { organization, call } => {
            let client = client.with_organization(&organization);
            return Box::pin(execute(&client, *call)).await;
        }
        Call::Files(call) => return local_files(call).await.map(Reply::Files),
        // The runtime answers these from the history database, never the client.
        Call::History(call) => {
            return Err(Failure {
                kind: FailureKind::Other,
                message: format!("{} needs the history database", call.describe()),
                fields: Vec::new(),
            });
        }
    };
    result.map_err(failure)
}

/// Writes the config file by `write` on a blocking thread; its error said in words.
async fn config_written(
    write: impl FnOnce() -> Result<(), crate::config::ConfigError> + Send + 'static,
) -> Result<FileReply, Failure> {
    let message = match tokio::task::spawn_blocking(write).await {
        Ok(Ok(())) => return Ok(FileReply::Saved),
        Ok(Err(e)) => e.to_string(),
        Err(e) => format!("the write stopped unexpectedly: {e}"),
    };
    Err(Failure {
        kind: FailureKind::Other,
        message,
        fields: Vec::new(),
    })
}

/// Carries out a call on local files, on a blocking thread.
async fn local_files(call: FileCall) -> Result<FileReply, Failure> {
    match call {
        FileCall::CompletePath { partial } => {
            let found = tokio::task::spawn_blocking(move || files::complete_path(&partial)).await;
            Ok(FileReply::PathCompletions(found.unwrap_or_default()))
        }
        FileCall::SaveView {
            file,
            pane,
            name,
            view,
        } => config_written(move || crate::config::save_view(&file, &pane, &name, &view)).await,
        FileCall::SaveColumns {
            file,
            pane,
            columns,
        } => config_written(move || crate::config::save_columns(&file, &pane, &columns)).await,
    }
}

/// The failure a pane shows for a file refused before anything was sent or written.
pub fn refused(refusal: Refusal) -> Failure {
    Failure {
        kind: match refusal.kind {
            RefusalKind::Validation => FailureKind::Validation,
            RefusalKind::Conflict => FailureKind::Conflict,
            RefusalKind::Other => FailureKind::Other,
        },
        message: refusal.message,
        fields: refusal.fields,
    }
}

/// The kind of failure `error` is, as the panes and the header read it.
pub fn failure_kind(error: &ApiError) -> FailureKind {
    match error {
        ApiError::Unauthorized { .. } => FailureKind::Unauthorized,
        ApiError::Forbidden { .. } => FailureKind::Forbidden,
        ApiError::NotFound { .. } => FailureKind::NotFound,
        ApiError::Validation(_) => FailureKind::Validation,
        ApiError::Conflict { .. } => FailureKind::Conflict,
        ApiError::RateLimited { .. } => FailureKind::RateLimited,
        ApiError::Server { .. } => FailureKind::Server,
        ApiError::Network { .. } => FailureKind::Network,
        ApiError::Timeout { .. } => FailureKind::Timeout,
        ApiError::Undecodable { .. } => FailureKind::Undecodable,
        ApiError::BadRequest { .. } | ApiError::MethodNotAllowed { .. } => FailureKind::Other,
        ApiError::Tenanted(e) => match e.status {
            401 => FailureKind::Unauthorized,
            403 => FailureKind::Forbidden,
            404 => FailureKind::NotFound,
            409 => FailureKind::Conflict,
            422 => FailureKind::Validation,
            _ => FailureKind::Other,
        },
        ApiError::Unsupported { .. } => FailureKind::Unsupported,
    }
}

/// The failure a pane shows for a client error. The client's messages never hold the key.
pub fn failure(error: ApiError) -> Failure {
    let kind = failure_kind(&error);
    Failure {
        kind,
        message: error.to_string(),
        fields: error.field_errors().to_vec(),
    }
}
