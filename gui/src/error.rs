//! The API's errors: an HTTP status and a one-line message, sent as
//! `{"error": "<message>"}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// An error the page is told about.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    /// Bad input from the page (400): nothing was changed.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::with(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::with(StatusCode::NOT_FOUND, message)
    }

    /// A limit of the server was reached (429).
    pub fn limit(message: impl Into<String>) -> ApiError {
        ApiError::with(StatusCode::TOO_MANY_REQUESTS, message)
    }

    /// The request does not fit the present state (409), e.g. no engine.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::with(StatusCode::CONFLICT, message)
    }

    pub fn with(status: StatusCode, message: impl Into<String>) -> ApiError {
        // One line, whatever the source said.
        let message: String = message
            .into()
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        ApiError { status, message }
    }
}

impl From<String> for ApiError {
    fn from(message: String) -> ApiError {
        ApiError::bad(message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, axum::Json(body)).into_response()
    }
}
