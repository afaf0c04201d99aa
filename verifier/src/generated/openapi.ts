// Generated from openapi/openapi.yaml by `npm run generate` (openapi-typescript).
// Do not edit by hand: change the OpenAPI document and regenerate.

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness probe
         * @description Answers 200 while the process runs. Needs no token.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness probe
         * @description Answers 200 when the database answers and the service is not shutting down, 503 otherwise. Needs no token.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Metrics for operators (Prometheus)
         * @description The service's metrics in the Prometheus text exposition format (version 0.0.4): API
         *     requests by operation and status with latency histograms, tokens issued and refused,
         *     rate-limit refusals, webhook delivery attempts by outcome, the delivery queue and the
         *     age of its oldest entry, ingestion counts, rows purged by retention, and process
         *     metrics. Labels never carry an id, a URL or patient data.
         *
         *     Not public. On this port it answers only when the operator sets `METRICS_TOKEN`, to
         *     `Authorization: Bearer <METRICS_TOKEN>`; otherwise it is 404. An operator may instead
         *     serve it on a port of its own (`METRICS_PORT`), off by default.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * API reference page
         * @description This document rendered for people (Redoc, served from this service; no third-party hosts). Needs no token.
         */
        get: operations["getApiReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/redoc.standalone.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Script of the API reference page
         * @description The Redoc bundle the reference page loads. Needs no token.
         */
        get: operations["getApiReferenceScript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document as JSON
         * @description The OpenAPI 3.1 document the service is built from, as JSON. Needs no token.
         */
        get: operations["getOpenApiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.yaml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document as YAML
         * @description The OpenAPI 3.1 document the service is built from, byte for byte as maintained. Needs no token.
         */
        get: operations["getOpenApiYaml"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Console: overview
         * @description The operators' console (never for partners: a partner's bearer token gets nothing
         *     under `/console`). Its pages are HTML for a browser, signed in by a one-time link that
         *     `ops console link --org ORG` prints; the session is of that organization only. This
         *     page shows at a glance, per feed (the MLLP peers and ingest credentials that sent in the
         *     last 24 hours) the messages of the last hour, those refused, the last message and the
         *     open MLLP connections; per webhook subscription what is queued, whether it is failing
         *     and whether it was disabled; the bulk exports running; and the eligibility checks queued
         *     and exchanged in the last 24 hours. Every page view and action is in the audit trail
         *     (client `console:<session id>`).
         */
        get: operations["consoleOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Console: sign-in page
         * @description Where a sign-in link leads (`/console/sign-in?token=ocl_...`): a page with one button
         *     that signs in (a POST), so a link preview or a mail scanner opening the link does not
         *     use it up. Without a token: how to ask for a link. Needs no session.
         */
        get: operations["consoleSignInPage"];
        put?: never;
        /**
         * Console: sign in
         * @description Redeems the one-time link's token (once: a second use, or an expired link, is refused
         *     with `console_link_invalid`) and opens a session: a cookie `ofctx_console` (`HttpOnly`,
         *     `SameSite=Strict`, `Path=/console`, `Secure` unless the service was reached over plain
         *     HTTP on loopback) valid `CONSOLE_SESSION_HOURS` (8), or until `CONSOLE_IDLE_MINUTES`
         *     (30) pass without a request, or until sign-out. Then to the overview.
         */
        post: operations["consoleSignIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Console: sign out
         * @description Ends the session (its cookie no longer opens anything, here or in another browser holding a copy) and clears the cookie.
         */
        post: operations["consoleSignOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/assets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Console: stylesheet
         * @description The console's stylesheets (Pico CSS from the service's own packages, and the console's own rules); no script is ever served to the console. Needs no session.
         */
        get: operations["consoleAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Console: message browser
         * @description Every inbound message of the session's organization (HL7 v2 over MLLP, FHIR Bundle and
         *     NDJSON, X12 271), newest first, with the filters of `ops messages list`: facility,
         *     status (its current one, after reprocesses), type (`ADT^A01`, or `ADT` for every ADT
         *     event), received since, resident. Metadata and the reason of a refusal only; a message's
         *     content is on its own page. Messages that no organization could be told for (several
         *     organizations, an unknown facility code, a source bound to none) are not in any
         *     organization's console: `ops messages list --unattributed`. Refused ones can be
         *     selected and reprocessed.
         */
        get: operations["consoleMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/messages/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Console: one message
         * @description One message of the session's organization with the answer it got (ACK code and ERR
         *     segments, or HTTP status and issues), the records it changed, every reprocess outcome,
         *     and reprocess when it stands refused. Its content (HL7 segments as fields, X12
         *     segments, or the FHIR text) only with `content=shown`: it holds patient data, and
         *     showing it is audited apart.
         */
        get: operations["consoleMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/messages/reprocess": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Console: reprocess messages
         * @description Runs the selected messages through their road again, one after another, as `ops messages reprocess` does (after the operator registered a facility code with `ops facility update --hl7-code`, say); each is applied once however often it is reprocessed or re-sent meanwhile. The page it came from shows what each one did.
         */
        post: operations["consoleReprocessMessages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Console: webhook deliveries
         * @description The organization's subscriptions (status, why disabled, failing since, queued) with recover and enable, and its deliveries newest first (the operators' view of `ops deliveries list`).
         */
        get: operations["consoleDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Console: one delivery
         * @description One delivery of the organization with every attempt (when, status code, duration, error class), and redeliver.
         */
        get: operations["consoleDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Console: redeliver
         * @description Queues the delivery again (same id, same body bytes, due now, a fresh retry schedule), as `ops deliveries redeliver`. Refused while it is queued or when its subscription is not active.
         */
        post: operations["consoleRedeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/subscriptions/{subscription_id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Console: recover deliveries
         * @description Queues again every failed or cancelled delivery of the subscription created since the time given, as the partner's `recoverWebhookDeliveries` does. Refused when the subscription is not active (enable it first).
         */
        post: operations["consoleRecoverDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/subscriptions/{subscription_id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Console: enable a subscription
         * @description Turns a disabled subscription active again with a clean failure record, as the partner's `enableWebhook` does; its backlog is recovered apart. A revoked one stays revoked.
         */
        post: operations["consoleEnableSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Console: clients and their policies
         * @description The organization's credentials (partner and ingest), read only, with their scopes, facilities, access policy (purpose of use, payers, restricted records), keys and whether revoked. Never a secret.
         */
        get: operations["consoleClients"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/disclosures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Console: a resident's accounting of disclosures
         * @description Every disclosure of one resident's records to a partner, oldest first (API reads and lists, webhook deliveries), as `ops audit disclosures`; a form asks for the resident without one.
         */
        get: operations["consoleDisclosures"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange client credentials for an access token
         * @description OAuth 2.0 client credentials grant (RFC 6749 section 4.4). Authenticate the client
         *     either with `client_id` and `client_secret` in the form body or with HTTP Basic
         *     (RFC 6749 section 2.3.1), or with a signed JWT assertion (`private_key_jwt`, RFC 7523,
         *     SMART Backend Services), exactly one of these. When `scope` is omitted every scope the client
         *     holds is granted. SMART v1 and v2 system scopes are read as the API's (see
         *     Authentication, "SMART scopes"): `scope` in the answer is in the client's syntax and
         *     names what was granted, every R4 type of it, without `c`, `u`, `d` or `write`. Answers use the plain RFC 6749 bodies, not the envelope, and carry
         *     `Cache-Control: no-store`. Rate limited per client IP address: every answer carries
         *     the `RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers),
         *     so a client sees its quota before it runs out, and a `429` adds `Retry-After`.
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/.well-known/smart-configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SMART configuration (discovery for SMART Backend Services)
         * @description The SMART App Launch 2.0 discovery document for backend services: where the token
         *     endpoint is, how clients may authenticate there (`private_key_jwt` with RS384 or
         *     ES384, or a client secret), and the scopes. Public; the same document is served
         *     under the FHIR R4 base. `token_endpoint` is absolute: built from `PUBLIC_BASE_URL`
         *     when the operator set it (behind a proxy), else from the URL this request reached.
         */
        get: operations["getSmartConfiguration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/.well-known/smart-configuration": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * SMART configuration under the FHIR R4 base
         * @description The same public document as `GET /api/v1/.well-known/smart-configuration`, where SMART clients look for it (relative to the FHIR base URL).
         */
        get: operations["getFhirSmartConfiguration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/{facility_id}/residents": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * List residents
         * @description Residents of the facility as FHIR Patient resources, in a stable order.
         */
        get: operations["listResidents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/{facility_id}/residents/{resident_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resident (Patient) id. */
                resident_id: string;
            };
            cookie?: never;
        };
        /**
         * Read one resident
         * @description One resident of the facility as a FHIR Patient resource.
         */
        get: operations["getResident"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/{facility_id}/coverage": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * List coverage records
         * @description Payer coverage of the facility's residents. `status` carries the X12 271 eligibility outcome.
         */
        get: operations["listCoverage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/{facility_id}/coverage/{coverage_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The coverage record id. */
                coverage_id: string;
            };
            cookie?: never;
        };
        /**
         * Read one coverage record
         * @description One coverage record of a resident of the facility.
         */
        get: operations["getCoverage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/{facility_id}/clinical/Observation": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * List observations
         * @description Vitals, weights and results of the facility's residents.
         */
        get: operations["listObservations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/{facility_id}/clinical/Observation/{resource_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource id. */
                resource_id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        /**
         * Read one observation
         * @description One observation of a resident of the facility.
         */
        get: operations["getObservation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/{facility_id}/clinical/AllergyIntolerance": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * List allergies
         * @description Allergies and intolerances of the facility's residents.
         */
        get: operations["listAllergies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/{facility_id}/clinical/AllergyIntolerance/{resource_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource id. */
                resource_id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        /**
         * Read one allergy
         * @description One allergy or intolerance of a resident of the facility.
         */
        get: operations["getAllergy"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/metadata": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * FHIR R4 CapabilityStatement
         * @description What the R4 view serves (types, interactions, search parameters). No token needed.
         */
        get: operations["getFhirCapabilityStatement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Subscription": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * Search FHIR Subscriptions
         * @description The facility's Subscriptions (deleted ones are gone), oldest first, as a `searchset` Bundle (one page: at most 50 can be active). `status` (`requested`, `active`, `error`, `off`; comma for several) and `url` (the endpoint) narrow it.
         */
        get: operations["searchFhirSubscription"];
        put?: never;
        /**
         * Create a FHIR Subscription (R5 Backport IG, R4)
         * @description A topic-based Subscription (profile
         *     `http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-subscription`,
         *     STU 1.1): `criteria` is one of this server's SubscriptionTopic canonicals (the
         *     CapabilityStatement lists them; `GET [base]/Basic?code=SubscriptionTopic` describes
         *     them), `_criteria` carries at most a few `backport-filter-criteria` filters, all of which
         *     must match (`Patient?identifier=[system|]value` and `Patient?_id=` on every topic;
         *     `DiagnosticReport?category=` and `Observation?category=` on the result topic).
         *     `channel.type` must be `rest-hook`; `channel.endpoint` is vetted as a webhook callback
         *     is (https, every address public; checked again at every attempt, redirects never
         *     followed); `channel.header` (at most 10, `Name: value`) is sent with every notification
         *     and stored encrypted: reads show the names only. `channel.payload` is
         *     `application/fhir+json`; its `backport-payload-content` is `empty`, `id-only` (the
         *     default) or `full-resource` (the focus as the creating credential's access policy
         *     lets it read it, and nothing more). `backport-heartbeat-period` (1 to 86400 seconds):
         *     a `heartbeat` is sent when nothing else was sent for that long. `backport-timeout`:
         *     how long an attempt waits for an answer, at most the server's own request timeout
         *     (a larger value is capped, and read back capped). `backport-max-count`: accepted;
         *     every notification carries one event, which any count allows. `end`: no event after
         *     it is notified.
         *
         *     The Subscription belongs to this facility (its events only) and to the organization,
         *     whose limit (50 active) counts webhooks and FHIR Subscriptions together. Created with
         *     status `requested`, a `handshake` is queued at once; the status is `active` once the
         *     endpoint accepted it (any 2xx). Notifications ride the webhook delivery machinery:
         *     durable outbox, retries with backoff (the webhook schedule), the SSRF guard,
         *     auto-disable, and the subscription's deliveries are listed, redelivered and recovered
         *     with `GET/POST /api/v1/ofctx/{org_id}/webhooks/{id}/deliveries...` (event
         *     notifications; handshakes and heartbeats are not listed). A notification is a `history`
         *     Bundle whose first entry is the SubscriptionStatus (a `Parameters`, profile
         *     `backport-subscription-status-r4`) with `events-since-subscription-start` and one
         *     `notification-event` (its number, timestamp and, unless `empty`, its focus); with
         *     `full-resource` the focus follows as an entry. Its bytes are fixed when the event is
         *     queued, so a retry sends the same notification.
         */
        post: operations["createFhirSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Subscription/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        /**
         * Read a FHIR Subscription
         * @description The Subscription with its status as the IG defines it: `requested` (the handshake is
         *     not delivered yet), `active`, `error` (the handshake or the latest notifications are
         *     failing; they are retried, and `error` says why), `off` (turned off by its owner,
         *     or disabled because the endpoint answered `410 Gone` or every attempt failed for
         *     `WEBHOOK_DISABLE_AFTER_HOURS`). `channel.header` shows the names only.
         */
        get: operations["readFhirSubscription"];
        /**
         * Update a FHIR Subscription (its status among the rest)
         * @description Replaces the Subscription's settings as a whole (as a create reads them; the event
         *     count goes on). `status: off` turns it off: nothing more is queued, and what was
         *     queued is cancelled (recoverable through the deliveries). `status: requested` turns an
         *     `off` one on again (within the organization's limit) and sends a new handshake, as a
         *     changed endpoint or a Subscription in `error` does. Omitted headers are removed: send
         *     them again. The credential that updates a Subscription becomes its owner: what is
         *     notified from then on follows that credential's facilities and access policy, so a
         *     credential that may see fewer residents than the one that created it is never sent,
         *     at an endpoint it chose, what it may not see.
         */
        put: operations["updateFhirSubscription"];
        post?: never;
        /**
         * Delete a FHIR Subscription
         * @description Nothing more is sent to it, for good (queued notifications are cancelled); it no longer reads or searches. Its deliveries stay listed under the webhook deliveries endpoints.
         */
        delete: operations["deleteFhirSubscription"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Subscription/{id}/$status": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        /**
         * A Subscription's $status
         * @description The IG's `$status`: a `searchset` Bundle of one SubscriptionStatus (`Parameters`, type `query-status`) with the status, `events-since-subscription-start` (every event queued for it, delivered or not; handshakes and heartbeats do not count) and, in `error` or `off`, why.
         */
        get: operations["fhirSubscriptionStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Subscription/{id}/$events": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        /**
         * A Subscription's $events (replay by event number)
         * @description The IG's `$events`: the Subscription's events from `eventsSinceNumber` to
         *     `eventsUntilNumber` (inclusive; by default the last 100; at most 100 per answer) as a
         *     `history` Bundle whose status is of type `query-event`, each event as it was notified
         *     (its focus, and with `full-resource` the resource as it was sent). Events whose
         *     notifications the retention purge removed are no longer listed, nor are events about
         *     a resident the caller's access policy hides (a Subscription notifies what its owner
         *     may see, and another credential of the organization may see less): their numbers are
         *     skipped. The `content` parameter is not supported: events come with the
         *     Subscription's own content.
         */
        get: operations["fhirSubscriptionEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Basic": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * The SubscriptionTopics (R4 Basic)
         * @description This server's SubscriptionTopics, as the Backport IG describes them for R4: `Basic` resources (code `SubscriptionTopic`) with the R5 cross-version extensions (url, title, description, the ofctx event that triggers it, the filters it accepts, the focus of its notifications). One topic per ofctx event type; `code=SubscriptionTopic` or none lists them all.
         */
        get: operations["searchFhirBasic"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Basic/{topic}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The topic's name, its Basic id (the last segment of its canonical, `resident-admitted`). */
                topic: string;
            };
            cookie?: never;
        };
        /**
         * A SubscriptionTopic (R4 Basic)
         * @description One SubscriptionTopic as an R4 `Basic` resource (see the search).
         */
        get: operations["readFhirBasic"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Patient": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * Search Patient (FHIR R4)
         * @description The facility's Patient resources as a FHIR R4 `searchset` Bundle: in insertion order, in (lastUpdated, id) order with `_lastUpdated`, or by `_sort` (`_lastUpdated` or `birthdate`, `-` for descending). The search runs in the database over indexed columns. A parameter not listed (or an unsupported modifier, `_sort` key or `_include`) is ignored and left out of the `self` link, or `400` with `Prefer: handling=strict`. Follow `link` `next` for the following page: it carries the search and its position (keyset: nothing skipped or repeated).
         */
        get: operations["searchFhirPatient"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Patient/_search": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search Patient by POST (FHIR R4)
         * @description FHIR R4 `POST [type]/_search`, the same search as `GET [base]/Patient` with its parameters in an `application/x-www-form-urlencoded` body (and, if any, in the query too; both apply). Answers exactly as the GET does, its `self` and `next` links as GETs.
         */
        post: operations["searchFhirPatientByPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Patient/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        /**
         * Read a Patient (FHIR R4)
         * @description One Patient as a FHIR R4 resource, with `ETag W/"<versionId>"` and `Last-Modified`; a matching `If-None-Match` is `304`.
         */
        get: operations["readFhirPatient"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Coverage": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * Search Coverage (FHIR R4)
         * @description The facility's Coverage resources as a FHIR R4 `searchset` Bundle: in insertion order, in (lastUpdated, id) order with `_lastUpdated`, or by `_sort` (`_lastUpdated`, `-` for descending). The search runs in the database over indexed columns. A parameter not listed (or an unsupported modifier, `_sort` key or `_include`) is ignored and left out of the `self` link, or `400` with `Prefer: handling=strict`. Follow `link` `next` for the following page: it carries the search and its position (keyset: nothing skipped or repeated).
         */
        get: operations["searchFhirCoverage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Coverage/_search": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search Coverage by POST (FHIR R4)
         * @description FHIR R4 `POST [type]/_search`, the same search as `GET [base]/Coverage` with its parameters in an `application/x-www-form-urlencoded` body (and, if any, in the query too; both apply). Answers exactly as the GET does, its `self` and `next` links as GETs.
         */
        post: operations["searchFhirCoverageByPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Coverage/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        /**
         * Read a Coverage (FHIR R4)
         * @description One Coverage as a FHIR R4 resource, with `ETag W/"<versionId>"` and `Last-Modified`; a matching `If-None-Match` is `304`.
         */
        get: operations["readFhirCoverage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Observation": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * Search Observation (FHIR R4)
         * @description The facility's Observation resources as a FHIR R4 `searchset` Bundle: in insertion order, in (lastUpdated, id) order with `_lastUpdated`, or by `_sort` (`_lastUpdated` or `date`, `-` for descending). The search runs in the database over indexed columns. A parameter not listed (or an unsupported modifier, `_sort` key or `_include`) is ignored and left out of the `self` link, or `400` with `Prefer: handling=strict`. Follow `link` `next` for the following page: it carries the search and its position (keyset: nothing skipped or repeated).
         */
        get: operations["searchFhirObservation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Observation/_search": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search Observation by POST (FHIR R4)
         * @description FHIR R4 `POST [type]/_search`, the same search as `GET [base]/Observation` with its parameters in an `application/x-www-form-urlencoded` body (and, if any, in the query too; both apply). Answers exactly as the GET does, its `self` and `next` links as GETs.
         */
        post: operations["searchFhirObservationByPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Observation/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        /**
         * Read a Observation (FHIR R4)
         * @description One Observation as a FHIR R4 resource, with `ETag W/"<versionId>"` and `Last-Modified`; a matching `If-None-Match` is `304`.
         */
        get: operations["readFhirObservation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/AllergyIntolerance": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * Search AllergyIntolerance (FHIR R4)
         * @description The facility's AllergyIntolerance resources as a FHIR R4 `searchset` Bundle: in insertion order, in (lastUpdated, id) order with `_lastUpdated`, or by `_sort` (`_lastUpdated`, `-` for descending). The search runs in the database over indexed columns. A parameter not listed (or an unsupported modifier, `_sort` key or `_include`) is ignored and left out of the `self` link, or `400` with `Prefer: handling=strict`. Follow `link` `next` for the following page: it carries the search and its position (keyset: nothing skipped or repeated).
         */
        get: operations["searchFhirAllergyIntolerance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/AllergyIntolerance/_search": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search AllergyIntolerance by POST (FHIR R4)
         * @description FHIR R4 `POST [type]/_search`, the same search as `GET [base]/AllergyIntolerance` with its parameters in an `application/x-www-form-urlencoded` body (and, if any, in the query too; both apply). Answers exactly as the GET does, its `self` and `next` links as GETs.
         */
        post: operations["searchFhirAllergyIntoleranceByPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/AllergyIntolerance/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        /**
         * Read a AllergyIntolerance (FHIR R4)
         * @description One AllergyIntolerance as a FHIR R4 resource, with `ETag W/"<versionId>"` and `Last-Modified`; a matching `If-None-Match` is `304`.
         */
        get: operations["readFhirAllergyIntolerance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Condition": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * Search Condition (FHIR R4)
         * @description The facility's Condition resources as a FHIR R4 `searchset` Bundle: in insertion order, in (lastUpdated, id) order with `_lastUpdated`, or by `_sort` (`_lastUpdated`, `-` for descending). The search runs in the database over indexed columns. A parameter not listed (or an unsupported modifier, `_sort` key or `_include`) is ignored and left out of the `self` link, or `400` with `Prefer: handling=strict`. Follow `link` `next` for the following page: it carries the search and its position (keyset: nothing skipped or repeated).
         */
        get: operations["searchFhirCondition"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Condition/_search": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search Condition by POST (FHIR R4)
         * @description FHIR R4 `POST [type]/_search`, the same search as `GET [base]/Condition` with its parameters in an `application/x-www-form-urlencoded` body (and, if any, in the query too; both apply). Answers exactly as the GET does, its `self` and `next` links as GETs.
         */
        post: operations["searchFhirConditionByPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Condition/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        /**
         * Read a Condition (FHIR R4)
         * @description One Condition as a FHIR R4 resource, with `ETag W/"<versionId>"` and `Last-Modified`; a matching `If-None-Match` is `304`.
         */
        get: operations["readFhirCondition"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/ServiceRequest": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * Search ServiceRequest (FHIR R4)
         * @description The facility's ServiceRequest resources as a FHIR R4 `searchset` Bundle: in insertion order, in (lastUpdated, id) order with `_lastUpdated`, or by `_sort` (`_lastUpdated`, `-` for descending). The search runs in the database over indexed columns. A parameter not listed (or an unsupported modifier, `_sort` key or `_include`) is ignored and left out of the `self` link, or `400` with `Prefer: handling=strict`. Follow `link` `next` for the following page: it carries the search and its position (keyset: nothing skipped or repeated).
         */
        get: operations["searchFhirServiceRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/ServiceRequest/_search": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search ServiceRequest by POST (FHIR R4)
         * @description FHIR R4 `POST [type]/_search`, the same search as `GET [base]/ServiceRequest` with its parameters in an `application/x-www-form-urlencoded` body (and, if any, in the query too; both apply). Answers exactly as the GET does, its `self` and `next` links as GETs.
         */
        post: operations["searchFhirServiceRequestByPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/ServiceRequest/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        /**
         * Read a ServiceRequest (FHIR R4)
         * @description One ServiceRequest as a FHIR R4 resource, with `ETag W/"<versionId>"` and `Last-Modified`; a matching `If-None-Match` is `304`.
         */
        get: operations["readFhirServiceRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/DiagnosticReport": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * Search DiagnosticReport (FHIR R4)
         * @description The facility's DiagnosticReport resources (lab results as US Core DiagnosticReport for Laboratory Results: an HL7 v2 OBR with its OBX, the narrative report as `presentedForm`) as a FHIR R4 `searchset` Bundle; `_include=DiagnosticReport:result` adds its Observations: in insertion order, in (lastUpdated, id) order with `_lastUpdated`, or by `_sort` (`_lastUpdated`, `date`, `-` for descending). The search runs in the database over indexed columns. A parameter not listed (or an unsupported modifier, `_sort` key or `_include`) is ignored and left out of the `self` link, or `400` with `Prefer: handling=strict`. Follow `link` `next` for the following page: it carries the search and its position (keyset: nothing skipped or repeated).
         */
        get: operations["searchFhirDiagnosticReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/DiagnosticReport/_search": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search DiagnosticReport by POST (FHIR R4)
         * @description FHIR R4 `POST [type]/_search`, the same search as `GET [base]/DiagnosticReport` with its parameters in an `application/x-www-form-urlencoded` body (and, if any, in the query too; both apply). Answers exactly as the GET does, its `self` and `next` links as GETs.
         */
        post: operations["searchFhirDiagnosticReportByPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/DiagnosticReport/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        /**
         * Read a DiagnosticReport (FHIR R4)
         * @description One DiagnosticReport (its `result` the Observations ofctx holds, `basedOn` the ServiceRequest with its placer number when ofctx holds it) as a FHIR R4 resource, with `ETag W/"<versionId>"` and `Last-Modified`; a matching `If-None-Match` is `304`.
         */
        get: operations["readFhirDiagnosticReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/MedicationRequest": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * Search MedicationRequest (FHIR R4)
         * @description The facility's MedicationRequest resources as a FHIR R4 `searchset` Bundle: in insertion order, in (lastUpdated, id) order with `_lastUpdated`, or by `_sort` (`_lastUpdated`, `-` for descending). The search runs in the database over indexed columns. A parameter not listed (or an unsupported modifier, `_sort` key or `_include`) is ignored and left out of the `self` link, or `400` with `Prefer: handling=strict`. Follow `link` `next` for the following page: it carries the search and its position (keyset: nothing skipped or repeated).
         */
        get: operations["searchFhirMedicationRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/MedicationRequest/_search": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search MedicationRequest by POST (FHIR R4)
         * @description FHIR R4 `POST [type]/_search`, the same search as `GET [base]/MedicationRequest` with its parameters in an `application/x-www-form-urlencoded` body (and, if any, in the query too; both apply). Answers exactly as the GET does, its `self` and `next` links as GETs.
         */
        post: operations["searchFhirMedicationRequestByPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/MedicationRequest/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        /**
         * Read a MedicationRequest (FHIR R4)
         * @description One MedicationRequest as a FHIR R4 resource, with `ETag W/"<versionId>"` and `Last-Modified`; a matching `If-None-Match` is `304`.
         */
        get: operations["readFhirMedicationRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/CoverageEligibilityResponse": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * Search CoverageEligibilityResponse (FHIR R4)
         * @description What the X12 271s said of the facility's Coverages (one per applied or rejected subscriber loop) as a FHIR R4 `searchset` Bundle, in insertion order, or in (lastUpdated, id) order with `_lastUpdated`. Follow `link` `next` for the following page.
         */
        get: operations["searchFhirCoverageEligibilityResponse"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/CoverageEligibilityResponse/_search": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search CoverageEligibilityResponse by POST (FHIR R4)
         * @description FHIR R4 `POST [type]/_search`, the same search as `GET [base]/CoverageEligibilityResponse` with its parameters in an `application/x-www-form-urlencoded` body (and, if any, in the query too; both apply). Answers exactly as the GET does, its `self` and `next` links as GETs.
         */
        post: operations["searchFhirCoverageEligibilityResponseByPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/CoverageEligibilityResponse/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        /**
         * Read a CoverageEligibilityResponse (FHIR R4)
         * @description One CoverageEligibilityResponse as a FHIR R4 resource, with `ETag W/"<versionId>"` and `Last-Modified`; a matching `If-None-Match` is `304`.
         */
        get: operations["readFhirCoverageEligibilityResponse"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/$export": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * Start a Bulk Data export of the facility (FHIR $export)
         * @description FHIR Bulk Data Access IG v2.0 kick-off (`Prefer: respond-async`). Answers `202` with `Content-Location`, the status URL to poll. The types (`_type`, default every exported type the token may read) need their read scopes with search (SMART `s`); `_since` exports only what changed after it. See docs/partners/bulk-export.md.
         */
        get: operations["kickOffFhirExport"];
        put?: never;
        /**
         * Start a Bulk Data export of the facility (FHIR $export, POST)
         * @description The same kick-off by `POST`, with its parameters in the query or in a FHIR `Parameters` body (as Medplum's `bulkExport` and other Bulk Data clients send it).
         */
        post: operations["kickOffFhirExportByPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Patient/$export": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        /**
         * Start a Bulk Data export of the facility's patients (FHIR $export)
         * @description FHIR Bulk Data Access IG v2.0 kick-off (`Prefer: respond-async`). Answers `202` with `Content-Location`, the status URL to poll. The types (`_type`, default every exported type the token may read) need their read scopes with search (SMART `s`); `_since` exports only what changed after it. See docs/partners/bulk-export.md.
         */
        get: operations["kickOffFhirPatientExport"];
        put?: never;
        /**
         * Start a Bulk Data export of the facility's patients (FHIR $export, POST)
         * @description The same kick-off by `POST`, with its parameters in the query or in a FHIR `Parameters` body (as Medplum's `bulkExport` and other Bulk Data clients send it).
         */
        post: operations["kickOffFhirPatientExportByPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/Group/{group_id}/$export": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The facility's id (the facility is the one Group of its R4 base); any other id is `404`. */
                group_id: string;
            };
            cookie?: never;
        };
        /**
         * Start a Bulk Data export of the facility as a Group (FHIR $export)
         * @description FHIR Bulk Data Access IG v2.0 kick-off (`Prefer: respond-async`). Answers `202` with `Content-Location`, the status URL to poll. The types (`_type`, default every exported type the token may read) need their read scopes with search (SMART `s`); `_since` exports only what changed after it. See docs/partners/bulk-export.md.
         */
        get: operations["kickOffFhirGroupExport"];
        put?: never;
        /**
         * Start a Bulk Data export of the facility as a Group (FHIR $export, POST)
         * @description The same kick-off by `POST`, with its parameters in the query or in a FHIR `Parameters` body (as Medplum's `bulkExport` and other Bulk Data clients send it).
         */
        post: operations["kickOffFhirGroupExportByPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/bulk-status/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The export, as its status URL names it. */
                job_id: components["parameters"]["ExportJobId"];
            };
            cookie?: never;
        };
        /**
         * Poll a Bulk Data export
         * @description `202` with `X-Progress` and `Retry-After` while the export runs; `200` with the manifest when it is done. Only the client that started the export sees it (any other: `404`); an expired or cancelled one is `404`.
         */
        get: operations["readFhirExportStatus"];
        put?: never;
        post?: never;
        /**
         * Cancel a Bulk Data export and remove its files
         * @description Removes the job and its files (running or completed); its status URL and files then answer `404`. Only the client that started it may cancel it.
         */
        delete: operations["cancelFhirExport"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fhir/R4/{org_id}/{facility_id}/bulk-files/{job_id}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The export, as its status URL names it. */
                job_id: components["parameters"]["ExportJobId"];
                /** @description A file of the manifest, such as `Patient.ndjson`. */
                file: string;
            };
            cookie?: never;
        };
        /**
         * Download a file of a Bulk Data export
         * @description One R4 resource per line (the R4 view's renderer), with the same bearer token (`requiresAccessToken: true`); only for the client that started the export.
         */
        get: operations["readFhirExportFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ingest/{org_id}/{facility_id}/fhir": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Write FHIR R4 resources (system of record)
         * @description The facility's system of record writes Patient, Coverage, Observation,
         *     AllergyIntolerance, Condition, MedicationRequest, ServiceRequest and Consent here, with an
         *     ingest credential (scope `ingest.write`; partner credentials never hold it, and ingest
         *     credentials cannot read the partner endpoints).
         *
         *     **`application/fhir+json`**: a FHIR R4 `Bundle` of type `transaction` (all or
         *     nothing) or `batch` (entry by entry), at most `INGEST_MAX_BUNDLE_BYTES` (8 MiB by
         *     default; larger is `413`). Entries are upserts the FHIR way: conditional update
         *     `PUT Patient?identifier=SYSTEM|VALUE` (likewise for the other types), `PUT Type/<ofctx id>`,
         *     or `POST Type` with `ifNoneExist: identifier=SYSTEM|VALUE`. A resource points at its
         *     resident with `Patient/<ofctx id>`, `Patient?identifier=SYSTEM|VALUE`, a
         *     `Reference.identifier`, or the `urn:uuid:` fullUrl of another entry. The answer is a
         *     `transaction-response` or `batch-response` Bundle: each entry's `response.status`
         *     (`201 Created`, `200 OK`), `location` (`Patient/<ofctx id>`), `etag` (`W/"<versionId>"`)
         *     and `lastModified`; a failed batch entry carries its own status and `outcome`. A
         *     refused transaction is one OperationOutcome naming each failing entry and field
         *     (`400` when an entry is not valid FHIR R4, `422` when it cannot be applied, `412`
         *     when its only failures are stale `ifMatch` versions, below), and nothing of it is
         *     written.
         *
         *     **Optimistic concurrency**: a `PUT` entry may carry `request.ifMatch`, the ETag of the
         *     version the sender last read (`W/"3"`, as answered in `response.etag` and by the read
         *     endpoints' `ETag`; `"3"` is accepted too). The entry is applied only if the record
         *     still is at that version; otherwise (another writer changed it since, or no record
         *     matches) it fails with `412 Precondition Failed` and an OperationOutcome issue of code
         *     `conflict` whose `details.coding` is `precondition_failed`: in a batch that entry's
         *     `response.status` alone, in a transaction the whole transaction (`412`, nothing
         *     written). Read the record again and resend. The check is made inside the write's
         *     transaction, so of two writers sending the same version exactly one succeeds. Without
         *     `ifMatch` the last write wins. A `POST` cannot carry `ifMatch` (`400`).
         *
         *     **`application/fhir+ndjson`**: one resource per line (FHIR Bulk Data), streamed, of
         *     any length; batch semantics. Each line is an upsert on its first identifier (or, with
         *     none, on its `id`, kept as identifier system `urn:ofctx:source-id`). The answer
         *     counts `created`, `updated`, `unchanged` and `events`, and lists the `rejected` lines
         *     (the first 1,000; `rejected_count` counts all).
         *
         *     Patients are matched by identifier across the whole organization: the same Patient
         *     sent under another facility is a transfer. Sending the same content again changes
         *     nothing, bumps no version and emits no event. Each real change bumps the record's
         *     `meta.versionId` by one and emits, in the same transaction:
         *
         *     | change | event |
         *     |---|---|
         *     | a Patient becomes active in the facility (new and `active` true or absent, or `active` false to true) | `resident.admitted` |
         *     | an active Patient turns `active: false` | `resident.discharged` |
         *     | a Patient of the organization is sent under another facility (it and its resources move) | `resident.transferred` (one event, `facility_id` the new facility) |
         *     | two records of one resident are merged (HL7 ADT^A40; the prior one turns inactive, its records move) | `resident.merged` (`data.merged_resident_id` the prior resident) |
         *     | a Coverage is created, or its status, payor, period, subscriberId, order, type, class (group, plan...), relationship or subscriber changes | `coverage.updated` |
         *     | a new Condition | `clinical.condition.created` |
         *     | a new MedicationRequest or ServiceRequest | `clinical.order.created` (`data.order_type` says which) |
         *     | a new DiagnosticReport, or a new status of one | `clinical.result.created` (`data.diagnostic_report_id`, `data.diagnostic_report_status`) |
         *     | a Consent | none (partners never read consents; what one changes, they see in the records' sync) |
         *
         *     **Access policy** (see the introduction): every resource's `meta.security` is kept
         *     with it; v3 Confidentiality `R`/`V` or an ActCode sensitivity code makes it a
         *     restricted record. A `Consent` (status, `scope` patient-privacy, `patient`,
         *     `provision.type`, `provision.purpose` codes of
         *     `http://terminology.hl7.org/CodeSystem/v3-ActReason`, `provision.period`) is matched
         *     to the earlier Consent of its first identifier even when posted, so a later one of
         *     the same identifier replaces it. A Consent, or a change of a Patient's labels,
         *     re-versions the resident's records. An event about a restricted record reaches only
         *     credentials cleared for restricted records.
         *
         *     Every failure of this operation, including authentication and authorization, is a
         *     FHIR `OperationOutcome` (`application/fhir+json`) whose issue `details.coding` carries
         *     the catalogue code (system `https://ofctx.example/fhir/CodeSystem/error`).
         */
        post: operations["ingestFhir"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ingest/{org_id}/{facility_id}/x12": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply an X12 271 eligibility response (system of record)
         * @description An X12 005010X279A1 271 interchange (`Content-Type: application/edi-x12`, at most
         *     `INGEST_MAX_BUNDLE_BYTES`), sent with an ingest credential (scope `ingest.write`), the
         *     same as `npm run -s ops -- import --org ORG --facility FAC FILE`.
         *
         *     Each subscriber (2000C) and dependent (2000D) loop is matched to a Coverage of the
         *     facility by its trace number TRN02 (the ofctx Coverage id, or an identifier the
         *     Coverage was ingested with), else by its member id NM109 against those identifiers.
         *     A matched Coverage changes as the 271 says, through the same change path as FHIR
         *     ingestion (a real change bumps `meta.versionId` and emits `coverage.updated` in the same
         *     transaction; the same answer again changes nothing):
         *
         *     | in the loop | Coverage |
         *     |---|---|
         *     | `EB01` `1` (active coverage) | `status: active` |
         *     | `EB01` `6` (inactive) and no `EB01` `1` | `status: cancelled` |
         *     | a plan end date in the past (`DTP*291` `RD8`, `DTP*347`) | `status: cancelled` |
         *     | `NM1*PR` (loop 2120, else 2100A) | `payor` (the name; a loop 2120 `NM1*PR` with an id is the payer id too: a new one asks that payer about the Coverage) |
         *     | `DTP*291` / `DTP*346` plan begin | `period.start` |
         *     | `AAA` (request rejected by the payer) | nothing; listed in `rejected` |
         *
         *     The answer counts `matched`, `updated` and `unchanged` loops and lists every loop not
         *     applied, `unmatched`, `rejected` or `conflicts`, with its location, trace, member id and
         *     reason. Each loop's Coverage is read, then written only if it still is at the version
         *     read; when another import (a FHIR feed, another 271) changed it in between, the loop is
         *     read and computed again from the Coverage as it now is, so both writes are kept, up to 3
         *     more times; a loop still in conflict after that is listed in `conflicts`, nothing of it
         *     written (send the 271 again), and the other loops are applied as usual. An
         *     interchange that is not well-formed (envelope, SE/GE/IEA counts, control numbers, an
         *     unknown qualifier or a bad date) is `400 invalid_x12` naming the segment and element,
         *     and nothing of it is written.
         *
         *     Each applied loop, and each rejected loop that matches a Coverage, is also kept as that
         *     Coverage's R4 CoverageEligibilityResponse (`responses` counts the new or changed ones;
         *     read them at `[R4 base]/CoverageEligibilityResponse`, scope `coverage.read`): its EB
         *     segments' deductibles (`EB01 C`), co-payments (`B`), coinsurance (`A`), limitations
         *     (`F`) and exclusions (`I`) per service type as `insurance[0].item[]`, or the AAA reasons
         *     as `error[]` (`outcome: error`). EB07 amounts, EB08 percents (a decimal fraction
         *     0 to 1), EB10 quantities (with EB09) and EB12 (Y, N, U, W) are checked like the rest.
         */
        post: operations["ingestX12"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        /**
         * List webhook subscriptions
         * @description The organization's subscriptions, newest last, including revoked ones. `signing_secret` is never included.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register a webhook subscription
         * @description Creates an active subscription. The answer is the only place `signing_secret`
         *     ever appears: store it. `callback_url` must be an absolute `https` URL whose host
         *     resolves only to public addresses. Events are delivered for the facilities the
         *     registering credential is granted.
         */
        post: operations["registerWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/webhooks/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        /**
         * List event types
         * @description The event types a subscription can name, with the `api_version` of their delivery envelope.
         */
        get: operations["listWebhookEventTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The subscription id. */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        /**
         * Read one webhook subscription
         * @description The subscription (never its secret): its `status`, and for a `disabled` one why
         *     (`disabled_reason`) and since when its attempts were failing (`failing_since`).
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Revoke a webhook subscription
         * @description Revokes the subscription: it receives nothing more, and every delivery still
         *     pending for it is cancelled. Answers the revoked subscription. Revoking an already
         *     revoked subscription answers the same record again.
         */
        delete: operations["revokeWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The subscription id. */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Build a signed test delivery
         * @description Builds, signs and returns (without sending) the delivery a real event of
         *     `event_type` would produce for this subscription, through the same code that signs
         *     real deliveries, with sample ids. `body` is the exact delivery body as a string:
         *     its UTF-8 bytes are what is signed. Use it to check a verifier before production.
         *     During a secret rotation's overlap it carries both signatures, exactly like a real
         *     delivery (see `rotateWebhookSecret`).
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The subscription id. */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a subscription's signing secret
         * @description Issues a new signing secret, returned only in this answer (as `signing_secret` and
         *     in its Standard Webhooks form `standard_webhooks_secret`). The replaced secret keeps
         *     signing beside the new one until `previous_secret_expires_at` (the overlap,
         *     `WEBHOOK_SECRET_OVERLAP_S`, 24 hours by default), so no receiver loses a delivery
         *     while it switches. Every attempt is signed when it is sent, with the secrets in force
         *     at that moment. The exact sequence:
         *
         *     1. Before the rotation (secret `S1`): `X-Service-Signature` = hex HMAC(S1, body);
         *        `webhook-signature` = `v1,<HMAC(S1, id.timestamp.body)>`.
         *     2. Rotation at `rotated_at` returns `S2`. Until `previous_secret_expires_at`:
         *        `X-Service-Signature` stays hex HMAC(**S1**, body), the one value a spec 6.3
         *        receiver still holding S1 compares with; `webhook-signature` lists both,
         *        `v1,<sig under S2> v1,<sig under S1>` (Standard Webhooks libraries accept a
         *        delivery when any listed signature matches their secret).
         *     3. From `previous_secret_expires_at` on: `X-Service-Signature` = hex HMAC(S2, body);
         *        `webhook-signature` = `v1,<sig under S2>`; S1 is forgotten.
         *
         *     What a receiver does: install S2 beside S1 at any time during the overlap
         *     (`@ofctx/verifier` takes `[S2, S1]` and checks either header), and drop S1 after the
         *     overlap. A receiver that can hold one secret only and reads only
         *     `X-Service-Signature` keeps S1 until `previous_secret_expires_at` and then swaps; an
         *     attempt it rejects around the swap is retried (first retry after 5 s) and re-signed
         *     with S2 alone, so it loses nothing. A Standard Webhooks receiver may swap to
         *     `standard_webhooks_secret` at any time after the rotation.
         *
         *     Rotating again during an overlap ends it at once: S1 is dropped and S2 becomes the
         *     previous secret. With `WEBHOOK_SECRET_OVERLAP_S=0` there is no overlap and
         *     `previous_secret_expires_at` is null.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/webhooks/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The subscription id. */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a disabled subscription again
         * @description Turns a `disabled` subscription (its receiver answered `410 Gone`, every attempt
         *     failed for `WEBHOOK_DISABLE_AFTER_HOURS`, 120 hours by default, or the credential that
         *     owned it was revoked) back to `active`: new events are delivered to it again. The
         *     credential that enables it becomes its owner: what it is sent from then on follows
         *     that credential's facilities and access policy. What was cancelled when it was
         *     disabled is not re-sent by this call: queue it with `recover`. Enabling an active
         *     subscription answers it unchanged. A `revoked` subscription cannot be enabled (`409
         *     subscription_not_active`: its owner ended it; register a new one), nor one beyond the
         *     organization's limit of 50 active subscriptions (`409 subscription_limit_reached`).
         */
        post: operations["enableWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The subscription id. */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        /**
         * List a subscription's deliveries and their attempts
         * @description The subscription's deliveries, newest first, each with every attempt made (when, the
         *     status code answered, how long it took, and a short error class; never a response
         *     body or a secret). `pending` includes a delivery whose attempt is under way.
         *     Deliveries are kept `DELIVERY_RETENTION_DAYS` (30 by default) after they end.
         *     Another organization's subscription is `404`. A subscription is the organization's,
         *     and what it was delivered followed its registering credential's facilities and access
         *     policy; a credential sees only the deliveries of events in facilities it is granted,
         *     about residents its own access policy lets it see (as the event log shows it), and
         *     `total` counts those.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/webhooks/{id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The subscription id. */
                id: components["parameters"]["SubscriptionId"];
                /** @description The delivery id (`delivery_id` in its body, `X-Service-Delivery-Id`). */
                delivery_id: components["parameters"]["DeliveryIdPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send one delivery again
         * @description Queues a delivered, failed or cancelled delivery again, due now, with a fresh retry
         *     schedule: the same body bytes (same `event_id` and `delivery_id`, so a receiver
         *     de-duplicates it as usual), a new signature and timestamp, and an
         *     `X-Service-Attempt` that keeps counting. A delivery still queued is `409
         *     delivery_already_queued`; one of a subscription that is not active is `409
         *     subscription_not_active` (enable it first). A delivery the credential is not shown
         *     (see `listWebhookDeliveries`) is `404`, like an unknown id.
         */
        post: operations["redeliverWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/webhooks/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The subscription id. */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send again every failed or cancelled delivery since a time
         * @description Queues again, due now, every `failed` or `cancelled` delivery of the subscription
         *     created at or after `since` (within the `DELIVERY_RETENTION_DAYS` kept), each like a
         *     `redeliver`: same bytes, new signature. Delivered and still queued deliveries are left
         *     alone, so each recovered event is sent once more. The subscription must be active
         *     (`409 subscription_not_active`: enable it first). Only the deliveries the credential
         *     is shown (see `listWebhookDeliveries`) are queued and counted.
         */
        post: operations["recoverWebhookDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        /**
         * The event log
         * @description Every event of the organization the credential may see, oldest first, after the
         *     event `after` (exclusive; omit it to start at the oldest event kept). Each item's
         *     `data` is exactly the `data` its deliveries carried, and its `id` their `event_id`,
         *     so a partner can rebuild its state from webhooks, from this log or from both,
         *     de-duplicating on the event id. The order is the order events were committed: a
         *     later poll with `after` set to the last id seen never misses an event committed
         *     since, nor repeats one. Events are kept `EVENT_RETENTION_DAYS` (30 by default).
         *
         *     What a credential sees: events of its organization, in the facilities it is granted,
         *     of the types whose read scope it holds with search (SMART `s`; `resident.*`:
         *     `residents.read`, `coverage.updated`: `coverage.read`, `clinical.*`: `clinical.read`). The filters
         *     narrow that: `types` naming a type whose scope the token lacks is `403
         *     insufficient_scope`; a `facility_id` not granted is `403 facility_forbidden`.
         *     `meta.page.next` is the id to send as `after` for the following page, present when
         *     more events follow; a page without it has caught up: poll again later with `after`
         *     set to the last id received.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ofctx/{org_id}/events/{event_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The event id (`event_id` of its deliveries). */
                event_id: string;
            };
            cookie?: never;
        };
        /**
         * Read one event
         * @description One event of the log, under the same visibility as `listEvents` (an event the credential may not see is `404`, like an unknown one).
         */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "resident.admitted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * resident.admitted
         * @description A resident is admitted to a facility.
         */
        post: operations["deliverResidentAdmitted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "resident.discharged": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * resident.discharged
         * @description A resident is discharged.
         */
        post: operations["deliverResidentDischarged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "resident.transferred": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * resident.transferred
         * @description A resident is transferred between facilities. `facility_id` is the facility the resident now belongs to.
         */
        post: operations["deliverResidentTransferred"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "resident.merged": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * resident.merged
         * @description Two records of one resident are merged (HL7 ADT^A40). `resident_id` is the surviving resident, `data.merged_resident_id` the prior one, now inactive, whose records moved to the survivor.
         */
        post: operations["deliverResidentMerged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "coverage.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * coverage.updated
         * @description A resident's payer coverage changes. Read the resident's coverage to see the change.
         */
        post: operations["deliverCoverageUpdated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "clinical.condition.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * clinical.condition.created
         * @description A new diagnosis is recorded for a resident.
         */
        post: operations["deliverClinicalConditionCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "clinical.order.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * clinical.order.created
         * @description A new order (for example a medication) is created for a resident. `data.order_type`
         *     says which kind: `MedicationRequest` (a medication) or `ServiceRequest` (a lab test,
         *     imaging, a therapy, a referral). It is absent only from an event queued by hand
         *     (`ops event emit`).
         */
        post: operations["deliverClinicalOrderCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "clinical.result.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * clinical.result.created
         * @description A resident's results arrive as a new DiagnosticReport (an HL7 v2 ORU's OBR with its
         *     OBX), or a report's status changes (preliminary to final, corrected). `data.diagnostic_report_id`
         *     and `data.diagnostic_report_status` name it; a corrected re-send with the same status is
         *     a new version without an event.
         */
        post: operations["deliverClinicalResultCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description The messages to reprocess (one `message_id` field per message), and the console page to go back to. */
        ConsoleReprocessForm: {
            /** @description The CSRF token every console form carries. */
            csrf_token: string;
            /** @description One message id, or several (a selection). */
            message_id: string | string[];
            /** @description The console page the form was on (a path under /console/messages); the message browser otherwise. */
            back?: string;
        };
        /** @description The sign-in page's form. */
        ConsoleSignInForm: {
            /** @description The one-time link's token. */
            token: string;
        };
        /** @description A console form that changes something; it carries the session's CSRF token. */
        ConsoleActionForm: {
            /** @description The CSRF token every console form carries. */
            csrf_token: string;
        };
        /** @description Recover deliveries since a time. */
        ConsoleRecoverForm: {
            /** @description The CSRF token every console form carries. */
            csrf_token: string;
            /** @description An RFC 3339 date-time, or a `datetime-local` value as a browser sends it (read as UTC). */
            since: string;
        };
        HealthStatus: {
            /** @enum {string} */
            status: "ok" | "unavailable";
        };
        /** @description Field values are checked by the token endpoint itself so that every failure gets its RFC 6749 error. */
        TokenRequest: {
            /** @description Must be `client_credentials`. */
            grant_type: string;
            /** @description The integration's client id; omit when using HTTP Basic. */
            client_id?: string;
            /** @description The matching secret; omit when using HTTP Basic or an assertion. */
            client_secret?: string;
            /** @description With `private_key_jwt`, `urn:ietf:params:oauth:client-assertion-type:jwt-bearer`. */
            client_assertion_type?: string;
            /** @description With `private_key_jwt`, the signed JWT (RS384 or ES384; `iss` = `sub` = client id, `aud` = the token URL, `exp` at most 5 minutes ahead, a fresh `jti`, `kid` in the header). */
            client_assertion?: string;
            /** @description Space-delimited scopes, the API's or SMART system scopes (`system/*.rs`, `system/Patient.read`, granular `system/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|vital-signs`, ...; see Authentication); omitted means every scope the client holds. */
            scope?: string;
        };
        /** @description SMART App Launch 2.0 `.well-known/smart-configuration`, for backend services. */
        SmartConfiguration: {
            /** Format: uri */
            token_endpoint: string;
            token_endpoint_auth_methods_supported: ("private_key_jwt" | "client_secret_basic" | "client_secret_post")[];
            token_endpoint_auth_signing_alg_values_supported: ("RS384" | "ES384")[];
            grant_types_supported: "client_credentials"[];
            scopes_supported: string[];
            capabilities: string[];
        };
        TokenResponse: {
            /** @description The bearer token. Opaque; treat it as a secret. */
            access_token: string;
            /** @constant */
            token_type: "Bearer";
            /**
             * @description Seconds until the token expires.
             * @constant
             */
            expires_in: 3600;
            /** @description Space-delimited granted scopes. */
            scope: string;
        };
        OAuthError: {
            /** @enum {string} */
            error: "invalid_request" | "invalid_client" | "unsupported_grant_type" | "invalid_scope" | "rate_limited" | "server_error";
            error_description?: string;
        };
        /**
         * @description Stable machine code of an error. New codes may be added; treat unknown ones by status.
         * @enum {string}
         */
        ErrorCode: "invalid_parameter" | "invalid_body" | "callback_url_not_allowed" | "invalid_fhir" | "invalid_x12" | "unprocessable_resource" | "precondition_failed" | "missing_token" | "invalid_token" | "insufficient_scope" | "organization_forbidden" | "facility_forbidden" | "not_found" | "method_not_allowed" | "subscription_not_active" | "subscription_limit_reached" | "delivery_already_queued" | "console_sign_in_required" | "console_link_invalid" | "csrf_token_invalid" | "payload_too_large" | "headers_too_large" | "unsupported_media_type" | "rate_limited" | "quota_exceeded" | "internal_error" | "service_unavailable";
        ErrorDetail: {
            /** @description Where the problem is, such as `query.page_size`, `path.org_id` or `body.callback_url`. */
            field: string;
            /** @description What is wrong with it. */
            issue: string;
        };
        Error: {
            code: components["schemas"]["ErrorCode"];
            /** @description A human explanation, safe to show to a developer. Never contains secrets or patient data. */
            message: string;
            details: components["schemas"]["ErrorDetail"][];
            request_id: string;
        };
        ErrorEnvelope: {
            data: null;
            meta: null;
            error: components["schemas"]["Error"];
        };
        PageMeta: {
            page: {
                page: number;
                page_size: number;
                /** @description Total number of matching rows. */
                total: number;
                /** @description Opaque cursor of the following page (resource lists); send it back as `?cursor=`. Absent on the last page. */
                next?: string;
            };
        };
        Reference: {
            reference: string;
        };
        Coding: {
            /** @description Code-system URI. */
            system: string;
            code: string;
            display: string;
        };
        Quantity: {
            value: number;
            unit: string;
            /** @constant */
            system: "http://unitsofmeasure.org";
            /** @description UCUM code. */
            code: string;
        };
        Identifier: {
            /** @description Identifier namespace URI, such as `http://hl7.org/fhir/sid/us-mbi`. */
            system: string;
            /** @description The value exactly as the system of record holds it. Masked values stay masked. */
            value: string;
        };
        HumanName: {
            /** @enum {string} */
            use: "official" | "usual" | "nickname" | "maiden";
            family: string;
            given: string[];
        };
        /**
         * @description FHIR R4 `meta`: the record's version and the instant of its last change. `versionId`
         *     starts at `1` and grows by one with every real change written by the facility's system
         *     of record (an identical re-send changes nothing); `lastUpdated` is ISO 8601 UTC.
         */
        ResourceMeta: {
            /** @example 3 */
            versionId: string;
            /**
             * Format: date-time
             * @example 2026-01-31T08:15:00.000Z
             */
            lastUpdated: string;
        };
        /** @description A resident, aligned with FHIR R4 Patient. */
        Patient: {
            /** @constant */
            resourceType: "Patient";
            /** Format: uuid */
            id: string;
            meta: components["schemas"]["ResourceMeta"];
            /** @description Identifiers exactly as held by the system of record; masked values stay masked. */
            identifier: components["schemas"]["Identifier"][];
            /** @description Whether the resident is currently in the facility. */
            active: boolean;
            name: components["schemas"]["HumanName"][];
            /** @enum {string} */
            gender: "male" | "female" | "other" | "unknown";
            /**
             * Format: date
             * @description The date of birth. Absent when the system of record sent none that could be read
             *     (FHIR R4 and US Core Patient.birthDate are 0..1): a reference lab that strips PHI
             *     writes PID-7 as the placeholder `DOB`, and its result is kept rather than refused
             *     (the HL7 ACK carries an ERR of severity W naming PID-7). The next message with a
             *     readable date fills it in; a message with an unreadable one never erases it.
             */
            birthDate?: string;
            /** @description The facility the resident belongs to, as `Organization/<facility_id>`. */
            managingOrganization: components["schemas"]["Reference"];
        };
        /** @description Payer coverage, aligned with FHIR R4 Coverage. `status` carries the X12 271 eligibility outcome. */
        Coverage: {
            /** @constant */
            resourceType: "Coverage";
            /** Format: uuid */
            id: string;
            meta: components["schemas"]["ResourceMeta"];
            /**
             * @description FHIR FinancialResourceStatusCodes. `active`: the latest 271 confirmed eligibility
             *     (or none has answered yet and the system of record sent it active);
             *     `cancelled`: the 271 reported the coverage inactive or terminated; `draft`: no
             *     eligibility answer yet; `entered-in-error`: recorded by mistake. ofctx asks the
             *     payer itself (see the Coverage tag): a change of status is a `coverage.updated`.
             * @enum {string}
             */
            status: "active" | "cancelled" | "draft" | "entered-in-error";
            /** @description `Patient/<resident_id>`. */
            beneficiary: components["schemas"]["Reference"];
            /** @description Each `Organization/<payer name>`. */
            payor: components["schemas"]["Reference"][];
            /** @description Masked identifier, returned exactly as held. */
            subscriberId: string;
            period: {
                /** Format: date */
                start: string;
            };
            /** @description Order of this coverage among the resident's policies; 1 is primary, 2 secondary, and so on. */
            order: number;
        };
        ObservationComponent: {
            code: components["schemas"]["Coding"];
            valueQuantity: components["schemas"]["Quantity"];
        };
        /**
         * @description An observation, aligned with FHIR R4 Observation. `valueString` holds the value with
         *     its unit as text. Blood pressure also carries `component` (systolic LOINC 8480-6,
         *     diastolic 8462-4); single-value vitals also carry `valueQuantity`.
         */
        Observation: {
            /** @constant */
            resourceType: "Observation";
            /** Format: uuid */
            id: string;
            meta: components["schemas"]["ResourceMeta"];
            /** @description `Patient/<resident_id>`. */
            subject: components["schemas"]["Reference"];
            /** @enum {string} */
            status: "registered" | "preliminary" | "final" | "amended" | "corrected" | "cancelled" | "entered-in-error" | "unknown";
            /** @description What was measured; `system` is `http://loinc.org` for vitals. */
            code: components["schemas"]["Coding"];
            /**
             * Format: date-time
             * @description ISO 8601 UTC timestamp.
             */
            effectiveDateTime: string;
            /** @description The value with its unit as text, such as `128/82 mm[Hg]` or `71.4 kg`. */
            valueString: string;
            valueQuantity?: components["schemas"]["Quantity"];
            component?: components["schemas"]["ObservationComponent"][];
        };
        /** @description An allergy or intolerance, aligned with FHIR R4 AllergyIntolerance (with `clinicalStatus` as a plain code). */
        AllergyIntolerance: {
            /** @constant */
            resourceType: "AllergyIntolerance";
            /** Format: uuid */
            id: string;
            meta: components["schemas"]["ResourceMeta"];
            /** @description `Patient/<resident_id>`. */
            patient: components["schemas"]["Reference"];
            /** @description The allergen, from the service's own allergen vocabulary. */
            code: components["schemas"]["Coding"];
            /** @enum {string} */
            clinicalStatus: "active" | "inactive" | "resolved";
        };
        PatientList: {
            data: components["schemas"]["Patient"][];
            meta: components["schemas"]["PageMeta"];
            error: null;
        };
        PatientRead: {
            data: components["schemas"]["Patient"];
            meta: null;
            error: null;
        };
        CoverageList: {
            data: components["schemas"]["Coverage"][];
            meta: components["schemas"]["PageMeta"];
            error: null;
        };
        CoverageRead: {
            data: components["schemas"]["Coverage"];
            meta: null;
            error: null;
        };
        ObservationList: {
            data: components["schemas"]["Observation"][];
            meta: components["schemas"]["PageMeta"];
            error: null;
        };
        ObservationRead: {
            data: components["schemas"]["Observation"];
            meta: null;
            error: null;
        };
        AllergyIntoleranceList: {
            data: components["schemas"]["AllergyIntolerance"][];
            meta: components["schemas"]["PageMeta"];
            error: null;
        };
        AllergyIntoleranceRead: {
            data: components["schemas"]["AllergyIntolerance"];
            meta: null;
            error: null;
        };
        /** @description A FHIR R4 Bundle of type `transaction` or `batch`; every entry has `resource` and `request`. */
        IngestBundle: {
            /** @constant */
            resourceType: "Bundle";
            /** @enum {string} */
            type: "transaction" | "batch";
            entry?: {
                /** @description `urn:uuid:...`, which other entries may reference. */
                fullUrl?: string;
                resource?: {
                    /** @enum {string} */
                    resourceType: "Patient" | "Coverage" | "Observation" | "AllergyIntolerance" | "Condition" | "MedicationRequest" | "ServiceRequest" | "Consent";
                };
                request?: {
                    /** @enum {string} */
                    method: "PUT" | "POST";
                    /** @description `Patient?identifier=SYSTEM|VALUE`, `Patient/<ofctx id>`, or `Patient` for a POST. */
                    url: string;
                    /** @description `identifier=SYSTEM|VALUE` */
                    ifNoneExist?: string;
                    /** @description PUT only: the ETag of the version read, `W/"<versionId>"` (or `"<versionId>"`); a stale one is `412 Precondition Failed`. */
                    ifMatch?: string;
                };
            }[];
        };
        IngestResponseBundle: {
            /** @constant */
            resourceType: "Bundle";
            /** @enum {string} */
            type: "transaction-response" | "batch-response";
            entry: {
                response: {
                    /** @description `201 Created`, `200 OK` (updated or unchanged), or a failure such as `422 Unprocessable Entity` or `412 Precondition Failed` (a stale `ifMatch`). */
                    status: string;
                    /** @description `Patient/<ofctx id>`. */
                    location?: string;
                    /** @description `W/"<versionId>"`. */
                    etag?: string;
                    /** Format: date-time */
                    lastModified?: string;
                    outcome?: components["schemas"]["OperationOutcome"];
                };
            }[];
        };
        IngestSummary: {
            created: number;
            updated: number;
            /** @description Lines identical to the stored record (no version, no event). */
            unchanged: number;
            /** @description The first 1,000 rejected lines. */
            rejected: {
                line: number;
                /** @description The FHIR issue type (`structure`, `value`, `not-found`...). */
                code: string;
                issue: string;
                expression?: string[];
            }[];
            rejected_count: number;
            /** @description Events queued by the changes. */
            events: number;
        };
        EligibilityLoopReport: {
            /** @description The loop, such as `2000C loop HL*3`. */
            at: string;
            /** @description Its TRN02. */
            trace: string | null;
            /** @description Its NM109. */
            member_id: string | null;
            /** @description Why it was not applied. */
            issue: string;
        };
        EligibilitySummary: {
            /** @description Loops matched to a Coverage and applied. */
            matched: number;
            updated: number;
            /** @description Matched loops that changed nothing (no version, no event). */
            unchanged: number;
            unmatched: components["schemas"]["EligibilityLoopReport"][];
            /** @description Loops the payer rejected (AAA), or that could not be applied. */
            rejected: components["schemas"]["EligibilityLoopReport"][];
            /** @description Loops whose Coverage another import changed each time this one read and wrote it (4 attempts); nothing of them was written. Send the 271 again. */
            conflicts: components["schemas"]["EligibilityLoopReport"][];
            /** @description coverage.updated events queued. */
            events: number;
            /** @description CoverageEligibilityResponses kept (new or changed) for the loops applied, and for the rejected loops that matched a Coverage (with the AAA reasons as `error`). The same 271 again keeps none. */
            responses: number;
        };
        /** @description FHIR R4 OperationOutcome. */
        OperationOutcome: {
            /** @constant */
            resourceType: "OperationOutcome";
            issue: {
                /** @enum {string} */
                severity: "fatal" | "error" | "warning" | "information";
                /** @description FHIR IssueType (`invalid`, `structure`, `required`, `value`, `not-found`, `forbidden`, `login`, `too-costly`...). */
                code: string;
                diagnostics?: string;
                expression?: string[];
                details?: {
                    coding?: {
                        system?: string;
                        code?: string;
                    }[];
                    text?: string;
                };
            }[];
        };
        FhirCoding: {
            system: string;
            code: string;
            display?: string;
        };
        FhirCodeableConcept: {
            coding: components["schemas"]["FhirCoding"][];
            text?: string;
        };
        /** @description A FHIR R4 CodeableConcept that may be text only (what the source wrote without a code). */
        FhirCodeableConceptOrText: {
            coding?: components["schemas"]["FhirCoding"][];
            text?: string;
        };
        FhirReference: {
            reference?: string;
            /** @description A logical reference (Coverage.payor's payer id, HL7 IN1-3). */
            identifier?: {
                system?: string;
                value: string;
            };
            display?: string;
        };
        FhirQuantity: {
            value: number;
            unit: string;
            /** @constant */
            system: "http://unitsofmeasure.org";
            code: string;
        };
        /** @description A FHIR R4 Quantity as a result carries it; `system` and `code` are UCUM's where the unit is valid UCUM, else the unit is text only. */
        FhirResultQuantity: {
            value: number;
            /** @enum {string} */
            comparator?: "<" | "<=" | ">=" | ">";
            unit?: string;
            system?: string;
            code?: string;
        };
        FhirResultRange: {
            low?: components["schemas"]["FhirResultQuantity"];
            high?: components["schemas"]["FhirResultQuantity"];
        };
        /** @description FHIR R4 Patient (the subset ofctx sends). Identifiers of known systems carry a `type` (HL7 v2-0203 SS, MC, MA, MR). */
        FhirPatient: {
            /** @constant */
            resourceType: "Patient";
            id: string;
            meta: components["schemas"]["ResourceMeta"];
            identifier: {
                system?: string;
                value: string;
                type?: components["schemas"]["FhirCodeableConcept"];
            }[];
            /** @description False for a discharged resident, who stays readable. */
            active: boolean;
            name: components["schemas"]["HumanName"][];
            /** @enum {string} */
            gender: "male" | "female" | "other" | "unknown";
            /**
             * Format: date
             * @description Absent when the system of record sent none that could be read (see the `/ofctx/` Patient's birthDate).
             */
            birthDate?: string;
            managingOrganization?: components["schemas"]["FhirReference"];
            /** @description After a merge (HL7 ADT^A40, event `resident.merged`), the surviving resident `replaces` the prior one, which is `replaced-by` it. */
            link?: {
                other: components["schemas"]["FhirReference"];
                /** @enum {string} */
                type: "replaced-by" | "replaces" | "refer" | "seealso";
            }[];
        };
        /**
         * @description FHIR R4 Coverage. `payor` is a Reference with the payer's name as `display` and, when the source named it, the payer's id as `identifier`.
         *     What an X12 270 eligibility inquiry needs, as the system of record sent it (FHIR Coverage, HL7 v2 IN1): `identifier` (the Coverage's own business identifiers), `type` (HL7 v2 IN1-15 as a `v2-0086` coding), `class` (`group`, `plan`... of `coverage-class`, with `value` and `name`), `relationship` (`subscriber-relationship`), and `subscriber`: the beneficiary itself when `self`, else `#subscriber`, a `contained` RelatedPerson with the subscriber's name, birth date and gender.
         */
        FhirCoverage: {
            /** @constant */
            resourceType: "Coverage";
            id: string;
            meta: components["schemas"]["ResourceMeta"];
            /** @description The subscriber when it is not the beneficiary (`subscriber` is `#subscriber`). */
            contained?: components["schemas"]["FhirSubscriberRelatedPerson"][];
            identifier?: {
                system: string;
                value: string;
            }[];
            /** @enum {string} */
            status: "active" | "cancelled" | "draft" | "entered-in-error";
            /** @description A CodeableConcept as the source sent it (its codings' system, code and display, and its text). */
            type?: {
                coding?: {
                    system?: string;
                    code?: string;
                    display?: string;
                }[];
                text?: string;
            };
            subscriber?: components["schemas"]["FhirReference"];
            subscriberId?: string;
            beneficiary: components["schemas"]["FhirReference"];
            relationship?: {
                coding: {
                    /** @constant */
                    system: "http://terminology.hl7.org/CodeSystem/subscriber-relationship";
                    /** @enum {string} */
                    code: "self" | "spouse" | "child" | "parent" | "common" | "other" | "injured";
                }[];
            };
            class?: {
                type: {
                    coding: {
                        /** @constant */
                        system: "http://terminology.hl7.org/CodeSystem/coverage-class";
                        /** @enum {string} */
                        code: "group" | "subgroup" | "plan" | "subplan" | "class" | "subclass" | "sequence" | "rxbin" | "rxpcn" | "rxid" | "rxgroup";
                    }[];
                };
                value: string;
                name?: string;
            }[];
            period?: {
                /** Format: date */
                start?: string;
                /** Format: date */
                end?: string;
            };
            payor: components["schemas"]["FhirReference"][];
            order?: number;
        };
        /** @description A Coverage's subscriber who is not its beneficiary (contained RelatedPerson `subscriber`), with its role towards the patient (v3 RoleCode) when known. */
        FhirSubscriberRelatedPerson: {
            /** @constant */
            resourceType: "RelatedPerson";
            /** @constant */
            id: "subscriber";
            patient: components["schemas"]["FhirReference"];
            relationship?: components["schemas"]["FhirCodeableConcept"][];
            name?: {
                family: string;
                given?: string[];
            }[];
            /** @enum {string} */
            gender?: "male" | "female" | "other" | "unknown";
            /** Format: date */
            birthDate?: string;
        };
        /** @description FHIR R4 Observation with exactly one value; blood pressure (LOINC 85354-9) has components only. Vital signs carry `category` vital-signs; lab results (US Core Laboratory Result Observation) `laboratory`, with their `referenceRange`, `interpretation` (v3 ObservationInterpretation) and `issued` where the lab sent them. */
        FhirObservation: {
            /** @constant */
            resourceType: "Observation";
            id: string;
            meta: components["schemas"]["ResourceMeta"];
            /** @description The identifiers the record was sent with (FHIR `identifier`, HL7 v2 placer and filler numbers), as the system of record holds them. */
            identifier?: {
                system: string;
                value: string;
            }[];
            /** @enum {string} */
            status: "registered" | "preliminary" | "final" | "amended" | "corrected" | "cancelled" | "entered-in-error" | "unknown";
            category?: components["schemas"]["FhirCodeableConcept"][];
            code: components["schemas"]["FhirCodeableConcept"];
            subject: components["schemas"]["FhirReference"];
            /** Format: date-time */
            effectiveDateTime?: string;
            /**
             * Format: date-time
             * @description When the result was released (HL7 v2 OBX-19).
             */
            issued?: string;
            valueQuantity?: components["schemas"]["FhirResultQuantity"];
            valueRange?: components["schemas"]["FhirResultRange"];
            valueRatio?: {
                numerator: components["schemas"]["FhirResultQuantity"];
                denominator: components["schemas"]["FhirResultQuantity"];
            };
            valueCodeableConcept?: components["schemas"]["FhirCodeableConceptOrText"];
            valueString?: string;
            interpretation?: components["schemas"]["FhirCodeableConceptOrText"][];
            referenceRange?: {
                low?: components["schemas"]["FhirResultQuantity"];
                high?: components["schemas"]["FhirResultQuantity"];
                type?: components["schemas"]["FhirCodeableConceptOrText"];
                text?: string;
            }[];
            component?: {
                code: components["schemas"]["FhirCodeableConcept"];
                valueQuantity: components["schemas"]["FhirQuantity"];
            }[];
        };
        /** @description FHIR R4 AllergyIntolerance; `clinicalStatus` codes are of http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical. */
        FhirAllergyIntolerance: {
            /** @constant */
            resourceType: "AllergyIntolerance";
            id: string;
            meta: components["schemas"]["ResourceMeta"];
            /** @description The identifiers the record was sent with (FHIR `identifier`, HL7 v2 placer and filler numbers), as the system of record holds them. */
            identifier?: {
                system: string;
                value: string;
            }[];
            clinicalStatus: components["schemas"]["FhirCodeableConcept"];
            category?: ("food" | "medication" | "environment" | "biologic")[];
            /** @enum {string} */
            criticality?: "low" | "high" | "unable-to-assess";
            code: components["schemas"]["FhirCodeableConcept"];
            patient: components["schemas"]["FhirReference"];
            reaction?: {
                manifestation: components["schemas"]["FhirCodeableConceptOrText"][];
                /** @enum {string} */
                severity?: "mild" | "moderate" | "severe";
            }[];
        };
        /** @description FHIR R4 Condition (a diagnosis; HL7 v2 DG1). `clinicalStatus` codes are of http://terminology.hl7.org/CodeSystem/condition-clinical. */
        FhirCondition: {
            /** @constant */
            resourceType: "Condition";
            id: string;
            meta: components["schemas"]["ResourceMeta"];
            /** @description The identifiers the record was sent with (FHIR `identifier`, HL7 v2 placer and filler numbers), as the system of record holds them. */
            identifier?: {
                system: string;
                value: string;
            }[];
            clinicalStatus?: components["schemas"]["FhirCodeableConcept"];
            /** @description The category the sender coded (its first coding), when it gave one; `category` search compares it. */
            category?: components["schemas"]["FhirCodeableConcept"][];
            code: components["schemas"]["FhirCodeableConcept"];
            subject: components["schemas"]["FhirReference"];
            onsetDateTime?: string;
        };
        /** @description FHIR R4 ServiceRequest (a lab test, imaging, a therapy, a referral; HL7 v2 ORC+OBR). */
        FhirServiceRequest: {
            /** @constant */
            resourceType: "ServiceRequest";
            id: string;
            meta: components["schemas"]["ResourceMeta"];
            /** @description The identifiers the record was sent with (FHIR `identifier`, HL7 v2 placer and filler numbers), as the system of record holds them. */
            identifier?: {
                system: string;
                value: string;
            }[];
            /** @enum {string} */
            status: "draft" | "active" | "on-hold" | "revoked" | "completed" | "entered-in-error" | "unknown";
            /** @enum {string} */
            intent: "proposal" | "plan" | "directive" | "order" | "original-order" | "reflex-order" | "filler-order" | "instance-order" | "option";
            /** @description The category the sender coded (its first coding), when it gave one; `category` search compares it. */
            category?: components["schemas"]["FhirCodeableConcept"][];
            code: components["schemas"]["FhirCodeableConcept"];
            subject: components["schemas"]["FhirReference"];
            authoredOn?: string;
        };
        /** @description FHIR R4 DiagnosticReport (US Core DiagnosticReport for Laboratory Results; HL7 v2 OBR with its OBX). `result` references the Observations ofctx holds; a narrative report (OBX TX/FT without an identifier) is `presentedForm` (text/plain) and `conclusion`. */
        FhirDiagnosticReport: {
            /** @constant */
            resourceType: "DiagnosticReport";
            id: string;
            meta: components["schemas"]["ResourceMeta"];
            identifier?: {
                system: string;
                value: string;
            }[];
            basedOn?: components["schemas"]["FhirReference"][];
            /** @enum {string} */
            status: "registered" | "partial" | "preliminary" | "final" | "amended" | "corrected" | "appended" | "cancelled" | "entered-in-error" | "unknown";
            category?: components["schemas"]["FhirCodeableConcept"][];
            code: components["schemas"]["FhirCodeableConceptOrText"];
            subject: components["schemas"]["FhirReference"];
            /** Format: date-time */
            effectiveDateTime?: string;
            /** Format: date-time */
            issued?: string;
            result?: components["schemas"]["FhirReference"][];
            conclusion?: string;
            presentedForm?: {
                contentType: string;
                /** Format: byte */
                data: string;
                title?: string;
            }[];
        };
        /** @description FHIR R4 MedicationRequest (HL7 v2 ORC+RXE). A medication known by name only is a text-only `medicationCodeableConcept`. */
        FhirMedicationRequest: {
            /** @constant */
            resourceType: "MedicationRequest";
            id: string;
            meta: components["schemas"]["ResourceMeta"];
            /** @description The identifiers the record was sent with (FHIR `identifier`, HL7 v2 placer and filler numbers), as the system of record holds them. */
            identifier?: {
                system: string;
                value: string;
            }[];
            /** @enum {string} */
            status: "active" | "on-hold" | "cancelled" | "completed" | "entered-in-error" | "stopped" | "draft" | "unknown";
            /** @enum {string} */
            intent: "proposal" | "plan" | "order" | "original-order" | "reflex-order" | "filler-order" | "instance-order" | "option";
            /** @description The category the sender coded (its first coding), when it gave one; `category` search compares it. */
            category?: components["schemas"]["FhirCodeableConcept"][];
            medicationCodeableConcept: components["schemas"]["FhirCodeableConceptOrText"];
            subject: components["schemas"]["FhirReference"];
            authoredOn?: string;
        };
        /** @description The search parameters of `POST [type]/_search`, as the query of the GET would carry them (names with their modifiers; a name given several times is a list). */
        FhirSearchForm: {
            [key: string]: string | string[];
        };
        /** @description FHIR R4 CoverageEligibilityResponse, kept for each X12 271 subscriber loop applied to a Coverage or rejected (AAA); `insurance[0].item[]` holds the EB segments' benefits (see docs/feeds/x12.md). */
        FhirCoverageEligibilityResponse: {
            /** @constant */
            resourceType: "CoverageEligibilityResponse";
            id: string;
            meta: components["schemas"]["ResourceMeta"];
            /** @constant */
            status: "active";
            purpose: ("auth-requirements" | "benefits" | "discovery" | "validation")[];
            patient: components["schemas"]["FhirReference"];
            /** @description The date the payer created the 271 (BHT04). */
            created: string;
            request: components["schemas"]["FhirReference"];
            /** @enum {string} */
            outcome: "complete" | "error";
            disposition?: string;
            insurer: components["schemas"]["FhirReference"];
            insurance: {
                coverage: components["schemas"]["FhirReference"];
                inforce?: boolean;
                item?: {
                    category: components["schemas"]["FhirCodeableConcept"];
                    excluded?: boolean;
                    description?: string;
                    network?: components["schemas"]["FhirCodeableConcept"];
                    unit?: components["schemas"]["FhirCodeableConcept"];
                    term?: components["schemas"]["FhirCodeableConcept"];
                    benefit?: {
                        type: components["schemas"]["FhirCodeableConcept"];
                        allowedMoney?: {
                            value: number;
                            currency: string;
                        };
                        allowedString?: string;
                        allowedUnsignedInt?: number;
                    }[];
                }[];
            }[];
            error?: {
                code: components["schemas"]["FhirCodeableConcept"];
            }[];
        };
        /** @description FHIR R4 Parameters, the kick-off's parameters (`_type`, `_since`, `_outputFormat`...) each with a `value[x]`. */
        FhirParameters: {
            /** @constant */
            resourceType: "Parameters";
            parameter?: {
                name: string;
            }[];
        };
        /** @description The Bulk Data manifest of a completed export. */
        BulkExportManifest: {
            /**
             * Format: date-time
             * @description When the export started; use it as the next export's `_since`.
             */
            transactionTime: string;
            /** Format: uri */
            request: string;
            /** @constant */
            requiresAccessToken: true;
            /** @description One file per type with resources. */
            output: {
                type: string;
                /** Format: uri */
                url: string;
                count: number;
            }[];
            /** @description An OperationOutcome file naming the parameters ignored under `handling=lenient`. */
            error: {
                /** @constant */
                type: "OperationOutcome";
                /** Format: uri */
                url: string;
            }[];
        };
        /** @description A FHIR R4 searchset Bundle. `total` counts every match (all pages); `link` has `self` (the parameters applied) and, except on the last page, `next`. `entry` is absent with `_summary=count`; resources added by `_include` have `search.mode` `include`. */
        FhirSearchset: {
            /** @constant */
            resourceType: "Bundle";
            /** @constant */
            type: "searchset";
            total: number;
            link: {
                /** @enum {string} */
                relation: "self" | "next";
                /** Format: uri */
                url: string;
            }[];
            entry?: {
                /** Format: uri */
                fullUrl: string;
                resource: components["schemas"]["FhirPatient"] | components["schemas"]["FhirCoverage"] | components["schemas"]["FhirObservation"] | components["schemas"]["FhirAllergyIntolerance"] | components["schemas"]["FhirCondition"] | components["schemas"]["FhirServiceRequest"] | components["schemas"]["FhirMedicationRequest"] | components["schemas"]["FhirCoverageEligibilityResponse"] | components["schemas"]["FhirDiagnosticReport"];
                search: {
                    /** @enum {string} */
                    mode?: "match" | "include";
                };
            }[];
        };
        /**
         * @description FHIR R4 Subscription with the R5 Backport IG's profile (`backport-subscription`). In a
         *     request, what `createFhirSubscription` describes; elements not read there are ignored.
         *     In an answer: `status` as the IG defines it, `error` why it is `error` or `off`, the
         *     channel's extensions as honoured (`backport-timeout` always), `channel.header` as
         *     `Name: ***`.
         */
        FhirSubscription: {
            /** @constant */
            resourceType: "Subscription";
            id?: string;
            meta?: Record<string, never>;
            /** @enum {string} */
            status: "requested" | "active" | "error" | "off";
            end?: string;
            reason: string;
            /** @description A SubscriptionTopic canonical of this server. */
            criteria: string;
            _criteria?: {
                extension?: components["schemas"]["FhirExtension"][];
            };
            error?: string;
            channel: {
                extension?: components["schemas"]["FhirExtension"][];
                type: string;
                endpoint?: string;
                payload?: string;
                _payload?: {
                    extension?: components["schemas"]["FhirExtension"][];
                };
                header?: string[];
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A FHIR extension (`url` and one `value[x]`, or nested extensions). */
        FhirExtension: {
            url: string;
        } & {
            [key: string]: unknown;
        };
        /** @description A searchset Bundle of Subscriptions. */
        FhirSubscriptionSearchset: {
            /** @constant */
            resourceType: "Bundle";
            /** @constant */
            type: "searchset";
            total: number;
            entry?: {
                /** Format: uri */
                fullUrl: string;
                resource: components["schemas"]["FhirSubscription"];
                search: Record<string, never>;
            }[];
        };
        /**
         * @description The SubscriptionStatus on R4: a `Parameters` with the profile
         *     `backport-subscription-status-r4`: `subscription` (valueReference), `topic`
         *     (valueCanonical, absent with `empty` content), `status`, `type` (`handshake`,
         *     `heartbeat`, `event-notification`, `query-status`, `query-event`),
         *     `events-since-subscription-start` (valueString), one `notification-event` per event
         *     (parts `event-number`, `timestamp`, and `focus` unless `empty`), and `error` when in
         *     error.
         */
        FhirSubscriptionStatusParameters: {
            /** @constant */
            resourceType: "Parameters";
            id?: string;
            meta?: Record<string, never>;
            parameter: ({
                name: string;
            } & {
                [key: string]: unknown;
            })[];
        };
        /** @description `$status`: a searchset Bundle of one SubscriptionStatus. */
        FhirSubscriptionStatusSearchset: {
            /** @constant */
            resourceType: "Bundle";
            /** @constant */
            type: "searchset";
            /** @constant */
            total: 1;
            entry: {
                fullUrl: string;
                resource: components["schemas"]["FhirSubscriptionStatusParameters"];
                search?: Record<string, never>;
            }[];
        };
        /**
         * @description A notification (profile `backport-subscription-notification-r4`) or an `$events`
         *     answer: a `history` Bundle whose first entry is the SubscriptionStatus; with
         *     `full-resource`, each event's focus follows as an entry (`request` PUT, `response`
         *     200), as the subscription's owner could read it when the event was queued.
         */
        FhirSubscriptionNotification: {
            /** @constant */
            resourceType: "Bundle";
            id?: string;
            meta?: Record<string, never>;
            /** @constant */
            type: "history";
            timestamp: string;
            entry: {
                fullUrl: string;
                /** @description The SubscriptionStatus first, then (full-resource) each event's focus. */
                resource: {
                    resourceType: string;
                } & {
                    [key: string]: unknown;
                };
                request: Record<string, never>;
                response: Record<string, never>;
            }[];
        };
        /** @description A SubscriptionTopic as an R4 `Basic` (code `SubscriptionTopic`, R5 cross-version extensions). */
        FhirTopicBasic: {
            /** @constant */
            resourceType: "Basic";
            id: string;
            meta?: Record<string, never>;
            code: Record<string, never>;
            extension: components["schemas"]["FhirExtension"][];
        };
        /** @description A searchset Bundle of the SubscriptionTopics. */
        FhirTopicSearchset: {
            /** @constant */
            resourceType: "Bundle";
            /** @constant */
            type: "searchset";
            total: number;
            entry?: {
                fullUrl: string;
                resource: components["schemas"]["FhirTopicBasic"];
                search: Record<string, never>;
            }[];
        };
        /** @description FHIR R4 CapabilityStatement of the R4 view (the subset ofctx sends). */
        FhirCapabilityStatement: {
            /** @constant */
            resourceType: "CapabilityStatement";
            /** @constant */
            status: "active";
            date: string;
            /** @constant */
            kind: "instance";
            /** @constant */
            fhirVersion: "4.0.1";
            format: string[];
            rest: {
                /** @constant */
                mode: "server";
                resource: {
                    type: string;
                    interaction: {
                        code: string;
                    }[];
                    searchParam: {
                        name: string;
                        type: string;
                        definition?: string;
                    }[];
                }[];
            }[];
        };
        /**
         * @description A versioned event type.
         * @enum {string}
         */
        EventType: "resident.admitted" | "resident.discharged" | "resident.transferred" | "resident.merged" | "coverage.updated" | "clinical.condition.created" | "clinical.order.created" | "clinical.result.created";
        EventTypeInfo: {
            event_type: components["schemas"]["EventType"];
            /** @description Version of the delivery envelope of this event type. */
            api_version: string;
            description: string;
        };
        EventTypeList: {
            data: components["schemas"]["EventTypeInfo"][];
            meta: components["schemas"]["PageMeta"];
            error: null;
        };
        WebhookRegistration: {
            /**
             * Format: uri
             * @description Absolute https URL that receives deliveries.
             */
            callback_url: string;
            event_types: components["schemas"]["EventType"][];
            description?: string;
        };
        /**
         * @description `active`: receives deliveries. `disabled`: the receiver answered 410 Gone, every
         *     attempt failed for `WEBHOOK_DISABLE_AFTER_HOURS` (120 hours by default), or the
         *     credential that owned it was revoked (see `disabled_reason`); nothing more is
         *     delivered until it is enabled again (`enableWebhook`). `revoked`: revoked through the API; nothing more is delivered,
         *     ever: register a new subscription.
         * @enum {string}
         */
        WebhookSubscriptionStatus: "active" | "disabled" | "revoked";
        WebhookSubscription: {
            /** Format: uuid */
            id: string;
            /** Format: uri */
            callback_url: string;
            event_types: components["schemas"]["EventType"][];
            description: string | null;
            /** @constant */
            signature_header: "X-Service-Signature";
            status: components["schemas"]["WebhookSubscriptionStatus"];
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When the subscription stopped being active (revoked or disabled), or null.
             */
            revoked_at: string | null;
            disabled_reason: components["schemas"]["WebhookDisabledReason"];
            /**
             * Format: date-time
             * @description When the first of the attempts that have failed without a success since began; null while the last attempt succeeded. Reaching `WEBHOOK_DISABLE_AFTER_HOURS` disables the subscription.
             */
            failing_since: string | null;
        };
        WebhookSubscriptionCreated: {
            /** Format: uuid */
            id: string;
            /** Format: uri */
            callback_url: string;
            event_types: components["schemas"]["EventType"][];
            description: string | null;
            /** @constant */
            signature_header: "X-Service-Signature";
            status: components["schemas"]["WebhookSubscriptionStatus"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            revoked_at: string | null;
            disabled_reason: components["schemas"]["WebhookDisabledReason"];
            /**
             * Format: date-time
             * @description When the first of the attempts that have failed without a success since began; null while the last attempt succeeded. Reaching `WEBHOOK_DISABLE_AFTER_HOURS` disables the subscription.
             */
            failing_since: string | null;
            /** @description The HMAC key, shown only in this answer: `ofx_whs_` followed by 43 base64url characters (32 random bytes). The key is the UTF-8 bytes of the whole string, prefix included; do not base64-decode it. */
            signing_secret: string;
            standard_webhooks_secret: components["schemas"]["StandardWebhooksSecret"];
        };
        WebhookSubscriptionCreatedRead: {
            data: components["schemas"]["WebhookSubscriptionCreated"];
            meta: null;
            error: null;
        };
        WebhookSubscriptionRead: {
            data: components["schemas"]["WebhookSubscription"];
            meta: null;
            error: null;
        };
        WebhookSubscriptionList: {
            data: components["schemas"]["WebhookSubscription"][];
            meta: components["schemas"]["PageMeta"];
            error: null;
        };
        WebhookTestRequest: {
            event_type: components["schemas"]["EventType"];
        };
        /** @description The headers the delivery carries, by name. */
        DeliveryHeaders: {
            /** @constant */
            "Content-Type": "application/json";
            "X-Service-Signature": string;
            /** Format: uuid */
            "X-Service-Delivery-Id": string;
            "X-Service-Event-Type": components["schemas"]["EventType"];
            "X-Service-Attempt": string;
            "X-Service-Timestamp": string;
            /** Format: uuid */
            "webhook-id": string;
            "webhook-timestamp": string;
            "webhook-signature": string;
        };
        WebhookTestDelivery: {
            /** @description The exact delivery body. Its UTF-8 bytes are what is signed. */
            body: string;
            /** @description Lowercase hex HMAC-SHA256 of `body`, keyed with the subscription's signing secret (the previous one during a secret rotation's overlap, exactly like a real delivery). */
            signature: string;
            /** @constant */
            signature_header: "X-Service-Signature";
            headers: components["schemas"]["DeliveryHeaders"];
        };
        WebhookTestDeliveryRead: {
            data: components["schemas"]["WebhookTestDelivery"];
            meta: null;
            error: null;
        };
        /** @description The same key as `signing_secret`, in the Standard Webhooks form: `whsec_` + base64 of the key bytes (the UTF-8 bytes of `signing_secret`). Give it as is to a `standardwebhooks` library to verify `webhook-signature`. Shown only in this answer. */
        StandardWebhooksSecret: string;
        WebhookSecretRotation: {
            /**
             * Format: uuid
             * @description The subscription.
             */
            id: string;
            /** @description The new HMAC key (`ofx_whs_...`), shown only in this answer; the key is the UTF-8 bytes of the whole string. */
            signing_secret: string;
            standard_webhooks_secret: components["schemas"]["StandardWebhooksSecret"];
            /** Format: date-time */
            rotated_at: string;
            /**
             * Format: date-time
             * @description Until when the replaced secret still signs beside the new one (null without an overlap).
             */
            previous_secret_expires_at: string | null;
        };
        WebhookSecretRotationRead: {
            data: components["schemas"]["WebhookSecretRotation"];
            meta: null;
            error: null;
        };
        /**
         * @description The minimum necessary: ids only, never names, birth dates or other protected health
         *     information. Read details through the API with a token granted the facility.
         */
        EventData: {
            /** Format: uuid */
            org_id: string;
            /** Format: uuid */
            facility_id: string;
            /** Format: uuid */
            resident_id: string;
            /**
             * @description `clinical.order.created` only: the FHIR R4 resource type of the new order, so a
             *     receiver can tell a medication order from a service order (lab, imaging, therapy,
             *     referral) without reading it; the order itself is read through the FHIR R4 view,
             *     `[base]/{order_type}?patient=<resident_id>` (scope `clinical.read`). Absent
             *     on every other event type. Added within v1: receivers ignore properties they do
             *     not know, as `@ofctx/verifier` does.
             * @enum {string}
             */
            order_type?: "MedicationRequest" | "ServiceRequest";
            /**
             * Format: uuid
             * @description `resident.merged` only: the prior resident, merged into `resident_id` (now
             *     inactive; its records moved to `resident_id`, and both Patients carry `link`).
             *     Absent on every other event type. Added within v1.
             */
            merged_resident_id?: string;
            /**
             * Format: uuid
             * @description `clinical.result.created` only: the new (or newly re-statused) DiagnosticReport,
             *     read at `[R4 base]/DiagnosticReport/{id}` (scope `clinical.read`), its results with
             *     `_include=DiagnosticReport:result`. Absent on every other event type. Added within v1.
             */
            diagnostic_report_id?: string;
            /**
             * @description `clinical.result.created` only: the report's status (R4 DiagnosticReportStatus) as of the event. Added within v1.
             * @enum {string}
             */
            diagnostic_report_status?: "registered" | "partial" | "preliminary" | "final" | "amended" | "corrected" | "appended" | "cancelled" | "entered-in-error" | "unknown";
        };
        /** @description The versioned delivery envelope. Verify the signature over the raw bytes before parsing. */
        EventDelivery: {
            /** @constant */
            api_version: "v1";
            event_type: components["schemas"]["EventType"];
            /**
             * Format: uuid
             * @description Id of the event; one event fans out to one delivery per subscription.
             */
            event_id: string;
            /**
             * Format: uuid
             * @description Id of this delivery; the same on every retry. Equal to the `X-Service-Delivery-Id` header.
             */
            delivery_id: string;
            /** Format: date-time */
            occurred_at: string;
            data: components["schemas"]["EventData"];
        };
        /**
         * @description Why a `disabled` subscription was disabled: `endpoint_gone` (its receiver answered
         *     `410 Gone`), `failing` (every attempt failed for `WEBHOOK_DISABLE_AFTER_HOURS`),
         *     `turned_off` (a FHIR Subscription its owner set to `off`), or `credential_revoked`
         *     (the credential that owned it was revoked: what a subscription is sent follows its
         *     owner's facilities and access policy, so nothing more would reach it; a credential of
         *     the organization that enables it takes it over). Null unless disabled.
         * @enum {string|null}
         */
        WebhookDisabledReason: "endpoint_gone" | "failing" | "turned_off" | "credential_revoked" | null;
        /**
         * @description `pending`: queued (waiting for its next attempt, or being attempted). `delivered`:
         *     a 2xx answer. `failed`: the retry schedule ran out, or the receiver answered 410.
         *     `cancelled`: its subscription was revoked or disabled while it was queued.
         * @enum {string}
         */
        WebhookDeliveryStatus: "pending" | "delivered" | "failed" | "cancelled";
        /**
         * @description Why an attempt failed, as a class (null on success): `timeout` (no answer in time),
         *     `connection_refused`, `connection_reset`, `dns` (the host did not resolve), `tls`
         *     (handshake or certificate), `network` (another transport failure), `ssrf_refused`
         *     (the URL or an address it resolves to is not allowed), `redirect` (a 3xx; never
         *     followed), `http_status` (any other non-2xx answer), `interrupted` (the worker
         *     making it stopped; it was attempted again), `internal` (a failure on the service's
         *     side). Never a response body or a secret.
         * @enum {string|null}
         */
        WebhookAttemptError: "timeout" | "connection_refused" | "connection_reset" | "dns" | "tls" | "network" | "ssrf_refused" | "redirect" | "http_status" | "interrupted" | "internal" | null;
        WebhookDeliveryAttempt: {
            /**
             * Format: date-time
             * @description When the attempt started.
             */
            at: string;
            /** @description The HTTP status answered, or null when none arrived. */
            status_code: number | null;
            /** @description How long the attempt took (null when it was interrupted). */
            duration_ms: number | null;
            error: components["schemas"]["WebhookAttemptError"];
        };
        WebhookDelivery: {
            /**
             * Format: uuid
             * @description The delivery id (`delivery_id` in the body, `X-Service-Delivery-Id`).
             */
            id: string;
            /** Format: uuid */
            event_id: string;
            event_type: components["schemas"]["EventType"];
            /** Format: uuid */
            facility_id: string;
            status: components["schemas"]["WebhookDeliveryStatus"];
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When a 2xx answer arrived (the latest, after a redelivery); null otherwise.
             */
            delivered_at: string | null;
            /**
             * Format: date-time
             * @description When a `pending` delivery is next attempted; null otherwise.
             */
            next_attempt_at: string | null;
            /** @description Every attempt, oldest first. */
            attempts: components["schemas"]["WebhookDeliveryAttempt"][];
        };
        WebhookDeliveryRead: {
            data: components["schemas"]["WebhookDelivery"];
            meta: null;
            error: null;
        };
        WebhookDeliveryList: {
            data: components["schemas"]["WebhookDelivery"][];
            meta: components["schemas"]["PageMeta"];
            error: null;
        };
        WebhookRecoverRequest: {
            /**
             * Format: date-time
             * @description Deliveries created at or after this instant are recovered.
             */
            since: string;
        };
        WebhookRecovery: {
            /** @description How many deliveries were queued again. */
            queued: number;
            /** Format: date-time */
            since: string;
        };
        WebhookRecoveryRead: {
            data: components["schemas"]["WebhookRecovery"];
            meta: null;
            error: null;
        };
        Event: {
            /**
             * Format: uuid
             * @description The event id, `event_id` of every delivery of the event.
             */
            id: string;
            type: components["schemas"]["EventType"];
            /** @constant */
            api_version: "v1";
            /**
             * Format: date-time
             * @description When the event was recorded.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description `occurred_at` of its deliveries.
             */
            occurred_at: string;
            /** Format: uuid */
            facility_id: string;
            data: components["schemas"]["EventData"];
        };
        EventRead: {
            data: components["schemas"]["Event"];
            meta: null;
            error: null;
        };
        EventList: {
            data: components["schemas"]["Event"][];
            meta: {
                page: {
                    page_size: number;
                    /**
                     * Format: uuid
                     * @description The `after` of the following page when more events follow; null once caught up.
                     */
                    next: string | null;
                };
            };
            error: null;
        };
    };
    responses: {
        /** @description A console page. */
        ConsolePage: {
            headers: {
                "Content-Security-Policy": components["headers"]["Console-Content-Security-Policy"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /** @example <!doctype html><html lang="en"><head><title>Overview · ofctx console</title>... */
                "text/html": string;
            };
        };
        /** @description Done (or refused, with the reason); back to the page the action was taken from, which shows the outcome once. */
        ConsoleSeeOther: {
            headers: {
                Location: components["headers"]["Console-Location"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description `invalid_parameter` or `invalid_body`, as an HTML page saying what to fix. */
        ConsoleBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /** @example <!doctype html><html lang="en"><head><title>Invalid parameter · ofctx console</title>... */
                "text/html": string;
            };
        };
        /** @description `unsupported_media_type`: a console form is posted as `application/x-www-form-urlencoded`, as an HTML page saying so. */
        ConsoleUnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /** @example <!doctype html><html lang="en"><head><title>Unsupported media type · ofctx console</title>... */
                "text/html": string;
            };
        };
        /** @description `headers_too_large`: the request line and headers exceed 16 KiB, as an HTML page saying so. */
        ConsoleHeadersTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /** @example <!doctype html><html lang="en"><head><title>Request headers too large · ofctx console</title>... */
                "text/html": string;
            };
        };
        /** @description `console_sign_in_required` (no session: none, ended, expired or idle; a bearer token is not one) or `console_link_invalid` (a link used already or expired), as an HTML page saying how to get a new link. */
        ConsoleSignInRequired: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /** @example <!doctype html><html lang="en"><head><title>Sign in · ofctx console</title>... */
                "text/html": string;
            };
        };
        /** @description `csrf_token_invalid`: the form did not carry this session's CSRF token, or came from another origin. */
        ConsoleForbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /** @example <!doctype html><html lang="en"><head><title>Form refused · ofctx console</title>... */
                "text/html": string;
            };
        };
        /** @description `not_found`: nothing with this id in the session's organization. */
        ConsoleNotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /** @example <!doctype html><html lang="en"><head><title>Not found · ofctx console</title>... */
                "text/html": string;
            };
        };
        /** @description `invalid_parameter` or `invalid_body` (see `error.details`), or `callback_url_not_allowed`. */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "data": null,
                 *       "meta": null,
                 *       "error": {
                 *         "code": "invalid_parameter",
                 *         "message": "The request has invalid parameters.",
                 *         "details": [
                 *           {
                 *             "field": "query.page_size",
                 *             "issue": "must be <= 200"
                 *           }
                 *         ],
                 *         "request_id": "1c0f6a52-6e43-4ad1-9a1e-35b1c2f0d9aa"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `missing_token` or `invalid_token` (unknown, expired, or its credential revoked). */
        Unauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "data": null,
                 *       "meta": null,
                 *       "error": {
                 *         "code": "invalid_token",
                 *         "message": "The access token is invalid or expired; request a new one at /api/v1/oauth/token.",
                 *         "details": [],
                 *         "request_id": "1c0f6a52-6e43-4ad1-9a1e-35b1c2f0d9aa"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `insufficient_scope`, `organization_forbidden` or `facility_forbidden`. */
        Forbidden: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWW-Authenticate-Scope"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "data": null,
                 *       "meta": null,
                 *       "error": {
                 *         "code": "insufficient_scope",
                 *         "message": "This operation needs the scope coverage.read, which the access token does not carry.",
                 *         "details": [
                 *           {
                 *             "field": "scope",
                 *             "issue": "requires coverage.read"
                 *           }
                 *         ],
                 *         "request_id": "1c0f6a52-6e43-4ad1-9a1e-35b1c2f0d9aa"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `not_found`: no such resource in this organization and facility. */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "data": null,
                 *       "meta": null,
                 *       "error": {
                 *         "code": "not_found",
                 *         "message": "No such resource.",
                 *         "details": [],
                 *         "request_id": "1c0f6a52-6e43-4ad1-9a1e-35b1c2f0d9aa"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Not modified: the `If-None-Match` ETag still matches. No body. */
        NotModified: {
            headers: {
                ETag: components["headers"]["ETag"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description `subscription_not_active`, `subscription_limit_reached` or `delivery_already_queued`. */
        Conflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "data": null,
                 *       "meta": null,
                 *       "error": {
                 *         "code": "subscription_not_active",
                 *         "message": "The subscription is revoked; register a new one.",
                 *         "details": [],
                 *         "request_id": "1c0f6a52-6e43-4ad1-9a1e-35b1c2f0d9aa"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `payload_too_large`: the body exceeds 64 KiB. */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "data": null,
                 *       "meta": null,
                 *       "error": {
                 *         "code": "payload_too_large",
                 *         "message": "The request body exceeds 65536 bytes.",
                 *         "details": [],
                 *         "request_id": "1c0f6a52-6e43-4ad1-9a1e-35b1c2f0d9aa"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `headers_too_large`: the request line and headers exceed 16 KiB. Over 64 KiB, Node's HTTP parser refuses the request before routing, with this same answer. */
        HeadersTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "data": null,
                 *       "meta": null,
                 *       "error": {
                 *         "code": "headers_too_large",
                 *         "message": "The request headers are too large (16 KiB at most).",
                 *         "details": [],
                 *         "request_id": "1c0f6a52-6e43-4ad1-9a1e-35b1c2f0d9aa"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `unsupported_media_type`: send `Content-Type: application/json`. */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "data": null,
                 *       "meta": null,
                 *       "error": {
                 *         "code": "unsupported_media_type",
                 *         "message": "Send the body as application/json.",
                 *         "details": [],
                 *         "request_id": "1c0f6a52-6e43-4ad1-9a1e-35b1c2f0d9aa"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `quota_exceeded`: the credential has used its request quota (see "Request quotas"). Nothing was done; wait `Retry-After` seconds. */
        QuotaExceeded: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "RateLimit-Policy": components["headers"]["ClientRateLimit-Policy"];
                RateLimit: components["headers"]["ClientRateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "data": null,
                 *       "meta": null,
                 *       "error": {
                 *         "code": "quota_exceeded",
                 *         "message": "This credential has used its request quota (50 units a second, 1000 at once); retry after 1 seconds, and pace requests by the RateLimit header. An operator can raise the quota with \"ops client update\".",
                 *         "details": [],
                 *         "request_id": "1c0f6a52-6e43-4ad1-9a1e-35b1c2f0d9aa"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The credential has used its request quota (see "Request quotas"): an OperationOutcome with code `throttled`. Nothing was done; wait `Retry-After` seconds. */
        FhirQuotaExceeded: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "RateLimit-Policy": components["headers"]["ClientRateLimit-Policy"];
                RateLimit: components["headers"]["ClientRateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "resourceType": "OperationOutcome",
                 *       "issue": [
                 *         {
                 *           "severity": "error",
                 *           "code": "throttled",
                 *           "diagnostics": "This credential has used its request quota (50 units a second, 1000 at once); retry after 1 seconds, and pace requests by the RateLimit header. An operator can raise the quota with \"ops client update\"."
                 *         }
                 *       ]
                 *     }
                 */
                "application/fhir+json": components["schemas"]["OperationOutcome"];
            };
        };
        /** @description `internal_error`: an unexpected failure. Nothing was changed; quote `request_id` to support. */
        InternalError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "data": null,
                 *       "meta": null,
                 *       "error": {
                 *         "code": "internal_error",
                 *         "message": "An unexpected error occurred.",
                 *         "details": [],
                 *         "request_id": "1c0f6a52-6e43-4ad1-9a1e-35b1c2f0d9aa"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `invalid_request`: the form body exceeds 64 KiB. */
        OAuthPayloadTooLarge: {
            headers: {
                "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "invalid_request",
                 *       "error_description": "The request body exceeds 65536 bytes."
                 *     }
                 */
                "application/json": components["schemas"]["OAuthError"];
            };
        };
        /** @description `invalid_request`: the request line and headers exceed 16 KiB (a client id and secret in HTTP Basic count). */
        OAuthHeadersTooLarge: {
            headers: {
                "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "invalid_request",
                 *       "error_description": "The request headers are too large (16 KiB at most)."
                 *     }
                 */
                "application/json": components["schemas"]["OAuthError"];
            };
        };
        /** @description `invalid_request`: the body is not application/x-www-form-urlencoded. */
        OAuthUnsupportedMediaType: {
            headers: {
                "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "invalid_request",
                 *       "error_description": "Send the token request as application/x-www-form-urlencoded."
                 *     }
                 */
                "application/json": components["schemas"]["OAuthError"];
            };
        };
        /** @description A FHIR OperationOutcome naming what is wrong and where; nothing of a refused transaction was written. */
        IngestFailure: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "resourceType": "OperationOutcome",
                 *       "issue": [
                 *         {
                 *           "severity": "error",
                 *           "code": "value",
                 *           "diagnostics": "Bundle.entry[2]: Patient.birthDate must be a full date YYYY-MM-DD; got \"1941-02-30\"",
                 *           "expression": [
                 *             "Patient.birthDate"
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/fhir+json": components["schemas"]["OperationOutcome"];
            };
        };
        /** @description A parameter is malformed or out of range. */
        FhirBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/fhir+json": components["schemas"]["OperationOutcome"];
            };
        };
        /** @description No token, or an invalid, expired or revoked one (`WWW-Authenticate` says which). */
        FhirUnauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/fhir+json": components["schemas"]["OperationOutcome"];
            };
        };
        /** @description The token lacks the scope, or the organization or facility is not one the credential holds. */
        FhirForbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/fhir+json": components["schemas"]["OperationOutcome"];
            };
        };
        /** @description The export is accepted; poll the status URL in `Content-Location`. */
        FhirExportAccepted: {
            headers: {
                /** @description The status URL. */
                "Content-Location": string;
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "resourceType": "OperationOutcome",
                 *       "issue": [
                 *         {
                 *           "severity": "information",
                 *           "code": "informational",
                 *           "diagnostics": "Export of Patient, Observation accepted; poll https://api.ofctx.example/api/v1/fhir/R4/6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60/0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21/bulk-status/5e6f7081-92a3-4b45-8d6e-7f8091a2b3c4."
                 *         }
                 *       ]
                 *     }
                 */
                "application/fhir+json": components["schemas"]["OperationOutcome"];
            };
        };
        /** @description The client already has `BULK_EXPORT_MAX_JOBS_PER_CLIENT` exports running (`rate_limited`), or the credential has used its request quota (`quota_exceeded`, see "Request quotas": then with the `RateLimit` fields). Wait `Retry-After` seconds. */
        FhirExportLimit: {
            headers: {
                /** @description Seconds to wait before trying again. */
                "Retry-After"?: string;
                "RateLimit-Policy": components["headers"]["ClientRateLimit-Policy"];
                RateLimit: components["headers"]["ClientRateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/fhir+json": components["schemas"]["OperationOutcome"];
            };
        };
        /** @description Bulk export is not configured on this server (PostgreSQL without `BULK_EXPORT_DIR`). */
        FhirUnavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/fhir+json": components["schemas"]["OperationOutcome"];
            };
        };
        /** @description The organization already has its limit of active subscriptions (webhooks and FHIR Subscriptions together). */
        FhirConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/fhir+json": components["schemas"]["OperationOutcome"];
            };
        };
        /** @description No such resource in this facility. */
        FhirNotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/fhir+json": components["schemas"]["OperationOutcome"];
            };
        };
        /** @description The body is not in the media type the operation takes (a `_search` takes `application/x-www-form-urlencoded`). */
        FhirUnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/fhir+json": components["schemas"]["OperationOutcome"];
            };
        };
        /** @description The request line and headers exceed 16 KiB (an OperationOutcome, code `too-long`). */
        FhirHeadersTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/fhir+json": components["schemas"]["OperationOutcome"];
            };
        };
        /** @description An unexpected failure; quote the request id in `diagnostics`. */
        FhirInternalError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/fhir+json": components["schemas"]["OperationOutcome"];
            };
        };
        /** @description Any 2xx answer within 15 seconds acknowledges the delivery; the body is ignored. */
        DeliveryAccepted: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The receiver no longer wants deliveries; the subscription is disabled. */
        DeliveryGone: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
    };
    parameters: {
        /** @description A webhook delivery of the session's organization. */
        ConsoleDeliveryId: string;
        /** @description A webhook subscription of the session's organization. */
        ConsoleSubscriptionId: string;
        /**
         * @description The organization id. Must be the organization bound to the credential.
         * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
         */
        OrgId: string;
        /**
         * @description The facility id. Must be one of the facilities granted to the credential.
         * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
         */
        FacilityId: string;
        /** @description The resource id. */
        ResourceId: string;
        /** @description The delivery id (`delivery_id` in its body, `X-Service-Delivery-Id`). */
        DeliveryIdPath: string;
        /** @description The subscription id. */
        SubscriptionId: string;
        /** @description Restrict the results to one resident. */
        ResidentFilter: string;
        /** @description 1-based page number. A page past the last answers an empty `data`. */
        Page: number;
        /** @description Rows per page. */
        PageSize: number;
        /**
         * @description Incremental sync: rows whose `meta.lastUpdated` matches, with a FHIR prefix `gt`, `ge`,
         *     `lt` or `le` and a date (`2026-11-20`, a whole UTC day) or an instant with a zone
         *     (`2026-11-20T10:00:00Z`, `2026-11-20T10:00:00.123Z`). Give it twice for a range. With
         *     it the order is (lastUpdated, id) and pages are followed with `meta.page.next`.
         * @example [
         *       "gt2026-11-20T10:00:00Z"
         *     ]
         */
        LastUpdated: string[];
        /** @description The opaque `meta.page.next` of the previous page, sent back unchanged. It carries its filter (`_lastUpdated`, `resident_id`) and position; `page` is then ignored. */
        Cursor: string;
        /**
         * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
         * @example W/"3"
         */
        IfNoneMatch: string;
        /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
        FhirId: string;
        /** @description The export, as its status URL names it. */
        ExportJobId: string;
        /** @description `respond-async` (required), and `handling=lenient` to have unsupported parameters ignored (reported in the manifest's `error`) instead of refused (`400`, the default, `handling=strict`). */
        ExportPrefer: string;
        /** @description Comma-separated types among Patient, Coverage, Observation, AllergyIntolerance, CoverageEligibilityResponse, DiagnosticReport (default every one the token may read); each needs its read scope with search (`403` otherwise). */
        ExportType: string;
        /** @description A FHIR instant (with a zone); only resources changed after it are exported. */
        ExportSince: string;
        ExportOutputFormat: "application/fhir+ndjson" | "application/ndjson" | "ndjson";
        /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
        ExportElements: string;
        /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
        ExportTypeFilter: string;
        /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
        ExportPatient: string;
        /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
        ExportIncludeAssociatedData: string;
        /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
        ExportOrganizeOutputBy: string;
        /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
        ExportAllowPartialManifests: string;
        /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
        FhirCount: number;
        /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
        FhirFormat: "json" | "application/json" | "application/fhir+json";
        /** @description One logical id, or several separated by commas (at most 200). */
        FhirIdSearch: string;
        /** @description Set by the server in the `next` link; follow the link as it is. */
        FhirCursor: string;
        /** @description A business identifier (Patient: MRN, Medicare MBI `http://hl7.org/fhir/sid/us-mbi|...`, member id; Coverage: its identifier), matched exactly on system and value. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
        FhirIdentifier: string[];
        /** @description Any part of the name, family or given. Starts with the value, ignoring case and accents (`okafo` finds Okafor, `nunez` finds Núñez); `:exact` (as `NAME:exact=`) the exact value, `:contains` anywhere in it. Several separated by commas match any. */
        FhirName: string[];
        /** @description The family name. Starts with the value, ignoring case and accents (`okafo` finds Okafor, `nunez` finds Núñez); `:exact` (as `NAME:exact=`) the exact value, `:contains` anywhere in it. Several separated by commas match any. */
        FhirFamily: string[];
        /** @description A given name. Starts with the value, ignoring case and accents (`okafo` finds Okafor, `nunez` finds Núñez); `:exact` (as `NAME:exact=`) the exact value, `:contains` anywhere in it. Several separated by commas match any. */
        FhirGiven: string[];
        /** @description The birth date. A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range. */
        FhirBirthdate: string[];
        /** @description `male`, `female`, `other` or `unknown` (http://hl7.org/fhir/administrative-gender). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
        FhirGender: string[];
        /** @description `true` or `false` (a discharged resident is `false`). */
        FhirActive: string[];
        /** @description The resource status (Coverage: `active`, `cancelled`, `draft`, `entered-in-error`; Observation: `final`, `amended`...; requests: their R4 status codes). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
        FhirStatus: string[];
        /** @description Observation: `vital-signs` (http://terminology.hl7.org/CodeSystem/observation-category) for the vital signs, and the category the source gave (`laboratory` for lab results). Condition, ServiceRequest, MedicationRequest: the category the sender coded (its first coding). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
        FhirCategory: string[];
        /** @description What the resource is about: the observed LOINC code, the allergen, the diagnosis, what was ordered, the medication. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
        FhirCode: string[];
        /** @description When the observation was made (effectiveDateTime). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range. */
        FhirDate: string[];
        /** @description AllergyIntolerance: `active`, `inactive`, `resolved`; Condition: `active`, `recurrence`, `relapse`, `inactive`, `remission`, `resolved`. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
        FhirClinicalStatus: string[];
        /** @description The request intent (`order`, `plan`, `proposal`...). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
        FhirIntent: string[];
        /**
         * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
         *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
         * @example [
         *       "gt2026-11-20T10:00:00Z"
         *     ]
         */
        FhirLastUpdated: string[];
        /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
        FhirSort: string;
        /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
        FhirSummary: string;
        /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
        FhirInclude: string;
        /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
        FhirPrefer: string;
        /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
        FhirOtherParameters: {
            [key: string]: string | string[];
        };
        /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
        FhirPatient: string;
        /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
        FhirSubject: string;
        /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
        FhirBeneficiary: string;
        /** @description Lowercase hex HMAC-SHA256 of the exact raw body bytes, keyed with the UTF-8 bytes of the subscription's signing secret. Compare in constant time. During a secret rotation's overlap it is keyed with the previous secret until `previous_secret_expires_at` (see `rotateWebhookSecret`). */
        DeliverySignature: string;
        /** @description Id of this delivery (one event to one subscription). The same on every retry; equal to `delivery_id` in the body. De-duplicate on it. */
        DeliveryId: string;
        /** @description The event type, equal to `event_type` in the body. */
        DeliveryEventType: string;
        /** @description 1 for the first attempt, 2 for the first retry, and so on. */
        DeliveryAttempt: number;
        /** @description Unix time in seconds at which this attempt was sent. Not covered by the signature (the body is signed, and the body is the same on every retry); use it to drop stale attempts, and de-duplicate on the delivery id. */
        DeliveryTimestamp: number;
        /** @description Standard Webhooks message id. The delivery id (equal to `X-Service-Delivery-Id`), the same on every retry. */
        StandardWebhookId: string;
        /** @description Standard Webhooks timestamp, Unix seconds of this attempt (equal to `X-Service-Timestamp`). Signed by `webhook-signature`; reject attempts more than 5 minutes from your clock. */
        StandardWebhookTimestamp: string;
        /**
         * @description Standard Webhooks signatures, space-separated: `v1,` + base64 HMAC-SHA256 of
         *     `webhook-id.webhook-timestamp.body`, keyed with the same key as
         *     `X-Service-Signature` (`standard_webhooks_secret` is that key as `whsec_` + base64).
         *     One entry normally; two during a secret rotation's overlap (new secret first).
         */
        StandardWebhookSignature: string;
    };
    requestBodies: {
        /** @description The delivery envelope. Its exact bytes are signed; verify before parsing. */
        ResidentEventDelivery: {
            content: {
                /**
                 * @example {
                 *       "api_version": "v1",
                 *       "event_type": "resident.admitted",
                 *       "event_id": "8a9b0c1d-2e3f-4a5b-8c7d-9e0f1a2b3c4d",
                 *       "delivery_id": "4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e",
                 *       "occurred_at": "2026-11-22T10:00:00.000Z",
                 *       "data": {
                 *         "org_id": "6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60",
                 *         "facility_id": "0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21",
                 *         "resident_id": "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["EventDelivery"];
            };
        };
    };
    headers: {
        /**
         * @description No script, no frame, nothing from another origin: `default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`.
         * @example default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'
         */
        "Console-Content-Security-Policy": string;
        /**
         * @description Where the browser goes next (a console page).
         * @example /console/deliveries
         */
        "Console-Location": string;
        /**
         * @description The session cookie `ofctx_console`: `HttpOnly; SameSite=Strict; Path=/console`, `Secure` unless on plain HTTP at a loopback address; `Max-Age=0` at sign-out.
         * @example ofctx_console=0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21.<SECRET>; Max-Age=28800; Path=/console; HttpOnly; Secure; SameSite=Strict
         */
        "Console-Set-Cookie": string;
        /**
         * @description Id of this request, also in `error.request_id`. A sane `X-Request-Id` sent by the caller (1 to 64 of `A-Z a-z 0-9 . _ -`) is echoed; otherwise one is generated.
         * @example 1c0f6a52-6e43-4ad1-9a1e-35b1c2f0d9aa
         */
        "X-Request-Id": string;
        /**
         * @description Seconds to wait before retrying.
         * @example 42
         */
        "Retry-After": number;
        /**
         * @description The token endpoint's quota per client IP address (draft-ietf-httpapi-ratelimit-headers): `"token";q=<requests>;w=<seconds>` (`TOKEN_RATE_LIMIT` per `TOKEN_RATE_LIMIT_WINDOW`).
         * @example "token";q=30;w=60
         */
        "RateLimit-Policy": string;
        /**
         * @description What is left of the quota for this address (draft-ietf-httpapi-ratelimit-headers): `"token";r=<requests left>;t=<seconds until the window resets>`.
         * @example "token";r=29;t=60
         */
        RateLimit: string;
        /**
         * @description The credential's request quota (draft-ietf-httpapi-ratelimit-headers): `"client";q=<burst units>;w=<seconds to refill the burst>`, a token bucket refilled continuously at q/w units a second (`ops client update --quota-rate/--quota-burst`, default 50 a second and 1,000 at once). Sent on every answer of an authenticated operation.
         * @example "client";q=1000;w=20
         */
        "ClientRateLimit-Policy": string;
        /**
         * @description What is left of the credential's quota (draft-ietf-httpapi-ratelimit-headers): `"client";r=<units left>;t=<seconds until the bucket is full again>`. Sent on every answer of an authenticated operation.
         * @example "client";r=0;t=20
         */
        ClientRateLimit: string;
        /** @description Token answers are never cached (RFC 6749 section 5.1). */
        "Cache-Control-No-Store": "no-store";
        /**
         * @description RFC 6750 challenge. `error` is absent when no token was sent, `invalid_token` for a bad, expired or revoked token.
         * @example Bearer realm="ofctx", error="invalid_token", error_description="The access token expired"
         */
        "WWW-Authenticate-Bearer": string;
        /**
         * @description RFC 6750 challenge, present for `insufficient_scope`, naming the scope the operation needs.
         * @example Bearer realm="ofctx", error="insufficient_scope", scope="coverage.read"
         */
        "WWW-Authenticate-Scope": string;
        /**
         * @description Weak entity tag. A read's is `W/"<versionId>"`; a list's is a digest of the page. Send it back as `If-None-Match`.
         * @example W/"3"
         */
        ETag: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is alive. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve requests. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            431: components["responses"]["HeadersTooLarge"];
            /** @description Not ready (database unreachable or shutting down). */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example # HELP ofctx_oauth_tokens_issued_total Access tokens issued by the token endpoint.
                     *     # TYPE ofctx_oauth_tokens_issued_total counter
                     *     ofctx_oauth_tokens_issued_total 42
                     */
                    "text/plain": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getApiReference: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The HTML page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html><head><title>ofctx Integration API</title>... */
                    "text/html": string;
                };
            };
            400: components["responses"]["BadRequest"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getApiReferenceScript: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The script. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /** @example /*! Redoc *\/ ... */
                    "application/javascript": string;
                };
            };
            400: components["responses"]["BadRequest"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getOpenApiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "openapi": "3.1.0",
                     *       "info": {
                     *         "title": "ofctx Integration API",
                     *         "version": "1.0.0"
                     *       }
                     *     }
                     */
                    "application/json": Record<string, never>;
                };
            };
            400: components["responses"]["BadRequest"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getOpenApiYaml: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example openapi: 3.1.0
                     *     info:
                     *       title: ofctx Integration API
                     */
                    "application/yaml": string;
                };
            };
            400: components["responses"]["BadRequest"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    consoleOverview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ConsolePage"];
            400: components["responses"]["ConsoleBadRequest"];
            401: components["responses"]["ConsoleSignInRequired"];
            431: components["responses"]["ConsoleHeadersTooLarge"];
        };
    };
    consoleSignInPage: {
        parameters: {
            query?: {
                /** @description The link's one-time token. */
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ConsolePage"];
            400: components["responses"]["ConsoleBadRequest"];
            431: components["responses"]["ConsoleHeadersTooLarge"];
        };
    };
    consoleSignIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["ConsoleSignInForm"];
            };
        };
        responses: {
            /** @description Signed in; to the overview. */
            303: {
                headers: {
                    Location: components["headers"]["Console-Location"];
                    "Set-Cookie": components["headers"]["Console-Set-Cookie"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ConsoleBadRequest"];
            401: components["responses"]["ConsoleSignInRequired"];
            403: components["responses"]["ConsoleForbidden"];
            415: components["responses"]["ConsoleUnsupportedMediaType"];
            431: components["responses"]["ConsoleHeadersTooLarge"];
        };
    };
    consoleSignOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["ConsoleActionForm"];
            };
        };
        responses: {
            /** @description Signed out; to the sign-in page. */
            303: {
                headers: {
                    Location: components["headers"]["Console-Location"];
                    "Set-Cookie": components["headers"]["Console-Set-Cookie"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ConsoleBadRequest"];
            401: components["responses"]["ConsoleSignInRequired"];
            403: components["responses"]["ConsoleForbidden"];
            415: components["responses"]["ConsoleUnsupportedMediaType"];
            431: components["responses"]["ConsoleHeadersTooLarge"];
        };
    };
    consoleAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Which stylesheet. */
                name: "pico.css" | "console.css";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stylesheet. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /** @example main { max-width: 72rem; } */
                    "text/css": string;
                };
            };
            400: components["responses"]["ConsoleBadRequest"];
            431: components["responses"]["ConsoleHeadersTooLarge"];
        };
    };
    consoleMessages: {
        parameters: {
            query?: {
                /** @description Only messages applied to (or meant for) this facility; empty, every facility. */
                facility?: string;
                /** @description Only messages whose current status is this; empty, every status. */
                status?: "" | "applied" | "applied_with_warnings" | "refused" | "duplicate";
                /** @description `ADT^A01` (that event), `ADT` (every ADT event), `Bundle`, `NDJSON`, `271`; empty, every type. */
                type?: string;
                /** @description Received at or after this time (UTC; a `datetime-local` value as a browser sends it, or RFC 3339); empty, any time. */
                since?: string;
                /** @description Only messages about this resident; empty, every resident. */
                resident?: string;
                /** @description The next (older) page, as the previous page's link gives it. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ConsolePage"];
            400: components["responses"]["ConsoleBadRequest"];
            401: components["responses"]["ConsoleSignInRequired"];
            431: components["responses"]["ConsoleHeadersTooLarge"];
        };
    };
    consoleMessage: {
        parameters: {
            query?: {
                /** @description `shown`: the message's content too. */
                content?: "shown";
            };
            header?: never;
            path: {
                /** @description A message of the session's organization. */
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ConsolePage"];
            400: components["responses"]["ConsoleBadRequest"];
            401: components["responses"]["ConsoleSignInRequired"];
            404: components["responses"]["ConsoleNotFound"];
            431: components["responses"]["ConsoleHeadersTooLarge"];
        };
    };
    consoleReprocessMessages: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["ConsoleReprocessForm"];
            };
        };
        responses: {
            303: components["responses"]["ConsoleSeeOther"];
            400: components["responses"]["ConsoleBadRequest"];
            401: components["responses"]["ConsoleSignInRequired"];
            403: components["responses"]["ConsoleForbidden"];
            404: components["responses"]["ConsoleNotFound"];
            415: components["responses"]["ConsoleUnsupportedMediaType"];
            431: components["responses"]["ConsoleHeadersTooLarge"];
        };
    };
    consoleDeliveries: {
        parameters: {
            query?: {
                /** @description Only deliveries in this state; empty (the form's "any"), every state. */
                status?: "" | "pending" | "sending" | "delivered" | "failed" | "cancelled";
                /** @description Only the deliveries of this subscription; empty (the form's "any"), every subscription. */
                subscription?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ConsolePage"];
            400: components["responses"]["ConsoleBadRequest"];
            401: components["responses"]["ConsoleSignInRequired"];
            431: components["responses"]["ConsoleHeadersTooLarge"];
        };
    };
    consoleDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook delivery of the session's organization. */
                delivery_id: components["parameters"]["ConsoleDeliveryId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ConsolePage"];
            400: components["responses"]["ConsoleBadRequest"];
            401: components["responses"]["ConsoleSignInRequired"];
            404: components["responses"]["ConsoleNotFound"];
            431: components["responses"]["ConsoleHeadersTooLarge"];
        };
    };
    consoleRedeliver: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook delivery of the session's organization. */
                delivery_id: components["parameters"]["ConsoleDeliveryId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["ConsoleActionForm"];
            };
        };
        responses: {
            303: components["responses"]["ConsoleSeeOther"];
            400: components["responses"]["ConsoleBadRequest"];
            401: components["responses"]["ConsoleSignInRequired"];
            403: components["responses"]["ConsoleForbidden"];
            404: components["responses"]["ConsoleNotFound"];
            415: components["responses"]["ConsoleUnsupportedMediaType"];
            431: components["responses"]["ConsoleHeadersTooLarge"];
        };
    };
    consoleRecoverDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook subscription of the session's organization. */
                subscription_id: components["parameters"]["ConsoleSubscriptionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["ConsoleRecoverForm"];
            };
        };
        responses: {
            303: components["responses"]["ConsoleSeeOther"];
            400: components["responses"]["ConsoleBadRequest"];
            401: components["responses"]["ConsoleSignInRequired"];
            403: components["responses"]["ConsoleForbidden"];
            404: components["responses"]["ConsoleNotFound"];
            415: components["responses"]["ConsoleUnsupportedMediaType"];
            431: components["responses"]["ConsoleHeadersTooLarge"];
        };
    };
    consoleEnableSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook subscription of the session's organization. */
                subscription_id: components["parameters"]["ConsoleSubscriptionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["ConsoleActionForm"];
            };
        };
        responses: {
            303: components["responses"]["ConsoleSeeOther"];
            400: components["responses"]["ConsoleBadRequest"];
            401: components["responses"]["ConsoleSignInRequired"];
            403: components["responses"]["ConsoleForbidden"];
            404: components["responses"]["ConsoleNotFound"];
            415: components["responses"]["ConsoleUnsupportedMediaType"];
            431: components["responses"]["ConsoleHeadersTooLarge"];
        };
    };
    consoleClients: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ConsolePage"];
            400: components["responses"]["ConsoleBadRequest"];
            401: components["responses"]["ConsoleSignInRequired"];
            431: components["responses"]["ConsoleHeadersTooLarge"];
        };
    };
    consoleDisclosures: {
        parameters: {
            query?: {
                /** @description The resident (Patient id). */
                resident?: string;
                /** @description From this day (UTC), inclusive; empty, unbounded. */
                from?: string;
                /** @description To this day (UTC), inclusive; empty, unbounded. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ConsolePage"];
            400: components["responses"]["ConsoleBadRequest"];
            401: components["responses"]["ConsoleSignInRequired"];
            431: components["responses"]["ConsoleHeadersTooLarge"];
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "grant_type": "client_credentials",
                 *       "client_id": "ofx_ci_4f3b2a1c9d8e7f6a5b4c3d2e",
                 *       "client_secret": "<CLIENT_SECRET>",
                 *       "scope": "residents.read coverage.read"
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["TokenRequest"];
            };
        };
        responses: {
            /** @description A bearer token. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "access_token": "ofx_at_Yk3lQ2h8cVx1N0pTb2JtY1ZhR0p6ZFc1bGRHVnpkQT09",
                     *       "token_type": "Bearer",
                     *       "expires_in": 3600,
                     *       "scope": "residents.read coverage.read"
                     *     }
                     */
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /**
             * @description `unsupported_grant_type` (grant_type is not client_credentials),
             *     `invalid_request` (a required field is missing or repeated, or the client
             *     authenticated twice) or `invalid_scope` (a requested scope is unknown, asks
             *     only what ofctx does not grant (`c`, `u`, `d`, `write`) or exceeds the grant; the
             *     description says which and what to ask instead).
             */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_scope",
                     *       "error_description": "The requested scope exceeds the scopes granted to this client."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description `invalid_client`: the credential check failed (for an assertion: its signature, key, algorithm, `iss`/`sub`, `aud`, `exp` or a reused `jti`). The answer never says which check; the service log does. */
            401: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    /**
                     * @description Present when the client authenticated with HTTP Basic.
                     * @example Basic realm="ofctx"
                     */
                    "WWW-Authenticate"?: string;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_client",
                     *       "error_description": "Client authentication failed."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            413: components["responses"]["OAuthPayloadTooLarge"];
            415: components["responses"]["OAuthUnsupportedMediaType"];
            /** @description Too many token requests from this IP address. Wait `Retry-After` seconds. */
            429: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "rate_limited",
                     *       "error_description": "Too many token requests from this address; retry after 42 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            431: components["responses"]["OAuthHeadersTooLarge"];
            /** @description `server_error`: an unexpected failure. */
            500: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "server_error",
                     *       "error_description": "An unexpected error occurred."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    getSmartConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The SMART configuration. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "token_endpoint": "https://api.ofctx.example/api/v1/oauth/token",
                     *       "token_endpoint_auth_methods_supported": [
                     *         "private_key_jwt",
                     *         "client_secret_basic",
                     *         "client_secret_post"
                     *       ],
                     *       "token_endpoint_auth_signing_alg_values_supported": [
                     *         "RS384",
                     *         "ES384"
                     *       ],
                     *       "grant_types_supported": [
                     *         "client_credentials"
                     *       ],
                     *       "scopes_supported": [
                     *         "system/*.rs",
                     *         "system/*.r",
                     *         "system/*.s",
                     *         "system/*.read",
                     *         "system/Patient.rs",
                     *         "system/Patient.r",
                     *         "system/Patient.s",
                     *         "system/Patient.read",
                     *         "system/Observation.rs",
                     *         "residents.read",
                     *         "coverage.read",
                     *         "clinical.read",
                     *         "webhooks.manage"
                     *       ],
                     *       "capabilities": [
                     *         "client-confidential-asymmetric",
                     *         "permission-v1",
                     *         "permission-v2"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SmartConfiguration"];
                };
            };
            400: components["responses"]["BadRequest"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getFhirSmartConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The SMART configuration. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "token_endpoint": "https://api.ofctx.example/api/v1/oauth/token",
                     *       "token_endpoint_auth_methods_supported": [
                     *         "private_key_jwt",
                     *         "client_secret_basic",
                     *         "client_secret_post"
                     *       ],
                     *       "token_endpoint_auth_signing_alg_values_supported": [
                     *         "RS384",
                     *         "ES384"
                     *       ],
                     *       "grant_types_supported": [
                     *         "client_credentials"
                     *       ],
                     *       "scopes_supported": [
                     *         "system/*.rs",
                     *         "system/*.r",
                     *         "system/*.s",
                     *         "system/*.read",
                     *         "system/Patient.rs",
                     *         "system/Patient.r",
                     *         "system/Patient.s",
                     *         "system/Patient.read",
                     *         "system/Observation.rs",
                     *         "residents.read",
                     *         "coverage.read",
                     *         "clinical.read",
                     *         "webhooks.manage"
                     *       ],
                     *       "capabilities": [
                     *         "client-confidential-asymmetric",
                     *         "permission-v1",
                     *         "permission-v2"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SmartConfiguration"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    listResidents: {
        parameters: {
            query?: {
                /** @description 1-based page number. A page past the last answers an empty `data`. */
                page?: components["parameters"]["Page"];
                /** @description Rows per page. */
                page_size?: components["parameters"]["PageSize"];
                /**
                 * @description Incremental sync: rows whose `meta.lastUpdated` matches, with a FHIR prefix `gt`, `ge`,
                 *     `lt` or `le` and a date (`2026-11-20`, a whole UTC day) or an instant with a zone
                 *     (`2026-11-20T10:00:00Z`, `2026-11-20T10:00:00.123Z`). Give it twice for a range. With
                 *     it the order is (lastUpdated, id) and pages are followed with `meta.page.next`.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["LastUpdated"];
                /** @description The opaque `meta.page.next` of the previous page, sent back unchanged. It carries its filter (`_lastUpdated`, `resident_id`) and position; `page` is then ignored. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of residents. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "resourceType": "Patient",
                     *           "id": "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a",
                     *           "meta": {
                     *             "versionId": "1",
                     *             "lastUpdated": "2026-01-31T08:15:00.000Z"
                     *           },
                     *           "identifier": [
                     *             {
                     *               "system": "http://hl7.org/fhir/sid/us-ssn",
                     *               "value": "XXX-XX-1234"
                     *             },
                     *             {
                     *               "system": "http://hl7.org/fhir/sid/us-mbi",
                     *               "value": "*****6789A"
                     *             }
                     *           ],
                     *           "active": true,
                     *           "name": [
                     *             {
                     *               "use": "official",
                     *               "family": "Okafor",
                     *               "given": [
                     *                 "Adaeze",
                     *                 "Grace"
                     *               ]
                     *             }
                     *           ],
                     *           "gender": "female",
                     *           "birthDate": "1941-03-17",
                     *           "managingOrganization": {
                     *             "reference": "Organization/0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21"
                     *           }
                     *         }
                     *       ],
                     *       "meta": {
                     *         "page": {
                     *           "page": 1,
                     *           "page_size": 50,
                     *           "total": 1
                     *         }
                     *       },
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["PatientList"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getResident: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resident (Patient) id. */
                resident_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resident. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PatientRead"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listCoverage: {
        parameters: {
            query?: {
                /** @description Restrict the results to one resident. */
                resident_id?: components["parameters"]["ResidentFilter"];
                /** @description 1-based page number. A page past the last answers an empty `data`. */
                page?: components["parameters"]["Page"];
                /** @description Rows per page. */
                page_size?: components["parameters"]["PageSize"];
                /**
                 * @description Incremental sync: rows whose `meta.lastUpdated` matches, with a FHIR prefix `gt`, `ge`,
                 *     `lt` or `le` and a date (`2026-11-20`, a whole UTC day) or an instant with a zone
                 *     (`2026-11-20T10:00:00Z`, `2026-11-20T10:00:00.123Z`). Give it twice for a range. With
                 *     it the order is (lastUpdated, id) and pages are followed with `meta.page.next`.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["LastUpdated"];
                /** @description The opaque `meta.page.next` of the previous page, sent back unchanged. It carries its filter (`_lastUpdated`, `resident_id`) and position; `page` is then ignored. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of coverage records. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "resourceType": "Coverage",
                     *           "id": "3a2b1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d",
                     *           "meta": {
                     *             "versionId": "1",
                     *             "lastUpdated": "2026-01-31T08:15:00.000Z"
                     *           },
                     *           "status": "active",
                     *           "beneficiary": {
                     *             "reference": "Patient/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a"
                     *           },
                     *           "payor": [
                     *             {
                     *               "reference": "Organization/Medicare Part A"
                     *             }
                     *           ],
                     *           "subscriberId": "XXXXXXX1234A",
                     *           "period": {
                     *             "start": "2025-01-01"
                     *           },
                     *           "order": 1
                     *         }
                     *       ],
                     *       "meta": {
                     *         "page": {
                     *           "page": 1,
                     *           "page_size": 50,
                     *           "total": 1
                     *         }
                     *       },
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["CoverageList"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getCoverage: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The coverage record id. */
                coverage_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The coverage record. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "resourceType": "Coverage",
                     *         "id": "3a2b1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d",
                     *         "meta": {
                     *           "versionId": "1",
                     *           "lastUpdated": "2026-01-31T08:15:00.000Z"
                     *         },
                     *         "status": "active",
                     *         "beneficiary": {
                     *           "reference": "Patient/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a"
                     *         },
                     *         "payor": [
                     *           {
                     *             "reference": "Organization/Medicare Part A"
                     *           }
                     *         ],
                     *         "subscriberId": "XXXXXXX1234A",
                     *         "period": {
                     *           "start": "2025-01-01"
                     *         },
                     *         "order": 1
                     *       },
                     *       "meta": null,
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["CoverageRead"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listObservations: {
        parameters: {
            query?: {
                /** @description Restrict the results to one resident. */
                resident_id?: components["parameters"]["ResidentFilter"];
                /** @description 1-based page number. A page past the last answers an empty `data`. */
                page?: components["parameters"]["Page"];
                /** @description Rows per page. */
                page_size?: components["parameters"]["PageSize"];
                /**
                 * @description Incremental sync: rows whose `meta.lastUpdated` matches, with a FHIR prefix `gt`, `ge`,
                 *     `lt` or `le` and a date (`2026-11-20`, a whole UTC day) or an instant with a zone
                 *     (`2026-11-20T10:00:00Z`, `2026-11-20T10:00:00.123Z`). Give it twice for a range. With
                 *     it the order is (lastUpdated, id) and pages are followed with `meta.page.next`.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["LastUpdated"];
                /** @description The opaque `meta.page.next` of the previous page, sent back unchanged. It carries its filter (`_lastUpdated`, `resident_id`) and position; `page` is then ignored. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of observations. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "resourceType": "Observation",
                     *           "id": "5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f",
                     *           "meta": {
                     *             "versionId": "1",
                     *             "lastUpdated": "2026-01-31T08:15:00.000Z"
                     *           },
                     *           "subject": {
                     *             "reference": "Patient/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a"
                     *           },
                     *           "status": "final",
                     *           "code": {
                     *             "system": "http://loinc.org",
                     *             "code": "85354-9",
                     *             "display": "Blood pressure panel"
                     *           },
                     *           "effectiveDateTime": "2026-11-20T08:30:00Z",
                     *           "valueString": "128/82 mm[Hg]",
                     *           "component": [
                     *             {
                     *               "code": {
                     *                 "system": "http://loinc.org",
                     *                 "code": "8480-6",
                     *                 "display": "Systolic blood pressure"
                     *               },
                     *               "valueQuantity": {
                     *                 "value": 128,
                     *                 "unit": "mm[Hg]",
                     *                 "system": "http://unitsofmeasure.org",
                     *                 "code": "mm[Hg]"
                     *               }
                     *             },
                     *             {
                     *               "code": {
                     *                 "system": "http://loinc.org",
                     *                 "code": "8462-4",
                     *                 "display": "Diastolic blood pressure"
                     *               },
                     *               "valueQuantity": {
                     *                 "value": 82,
                     *                 "unit": "mm[Hg]",
                     *                 "system": "http://unitsofmeasure.org",
                     *                 "code": "mm[Hg]"
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "meta": {
                     *         "page": {
                     *           "page": 1,
                     *           "page_size": 50,
                     *           "total": 1
                     *         }
                     *       },
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["ObservationList"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getObservation: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource id. */
                resource_id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The observation. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "resourceType": "Observation",
                     *         "id": "6d5e4f3a-2b1c-4d0e-9f8a-7b6c5d4e3f2a",
                     *         "meta": {
                     *           "versionId": "1",
                     *           "lastUpdated": "2026-01-31T08:15:00.000Z"
                     *         },
                     *         "subject": {
                     *           "reference": "Patient/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a"
                     *         },
                     *         "status": "final",
                     *         "code": {
                     *           "system": "http://loinc.org",
                     *           "code": "29463-7",
                     *           "display": "Body weight"
                     *         },
                     *         "effectiveDateTime": "2026-11-20T08:35:00Z",
                     *         "valueString": "71.4 kg",
                     *         "valueQuantity": {
                     *           "value": 71.4,
                     *           "unit": "kg",
                     *           "system": "http://unitsofmeasure.org",
                     *           "code": "kg"
                     *         }
                     *       },
                     *       "meta": null,
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["ObservationRead"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listAllergies: {
        parameters: {
            query?: {
                /** @description Restrict the results to one resident. */
                resident_id?: components["parameters"]["ResidentFilter"];
                /** @description 1-based page number. A page past the last answers an empty `data`. */
                page?: components["parameters"]["Page"];
                /** @description Rows per page. */
                page_size?: components["parameters"]["PageSize"];
                /**
                 * @description Incremental sync: rows whose `meta.lastUpdated` matches, with a FHIR prefix `gt`, `ge`,
                 *     `lt` or `le` and a date (`2026-11-20`, a whole UTC day) or an instant with a zone
                 *     (`2026-11-20T10:00:00Z`, `2026-11-20T10:00:00.123Z`). Give it twice for a range. With
                 *     it the order is (lastUpdated, id) and pages are followed with `meta.page.next`.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["LastUpdated"];
                /** @description The opaque `meta.page.next` of the previous page, sent back unchanged. It carries its filter (`_lastUpdated`, `resident_id`) and position; `page` is then ignored. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of allergies. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "resourceType": "AllergyIntolerance",
                     *           "id": "7e6f5a4b-3c2d-4e1f-9a0b-8c7d6e5f4a3b",
                     *           "meta": {
                     *             "versionId": "1",
                     *             "lastUpdated": "2026-01-31T08:15:00.000Z"
                     *           },
                     *           "patient": {
                     *             "reference": "Patient/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a"
                     *           },
                     *           "code": {
                     *             "system": "https://ofctx.example/fhir/CodeSystem/allergen",
                     *             "code": "PCN",
                     *             "display": "Penicillin"
                     *           },
                     *           "clinicalStatus": "active"
                     *         }
                     *       ],
                     *       "meta": {
                     *         "page": {
                     *           "page": 1,
                     *           "page_size": 50,
                     *           "total": 1
                     *         }
                     *       },
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["AllergyIntoleranceList"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getAllergy: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource id. */
                resource_id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allergy. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "resourceType": "AllergyIntolerance",
                     *         "id": "7e6f5a4b-3c2d-4e1f-9a0b-8c7d6e5f4a3b",
                     *         "meta": {
                     *           "versionId": "1",
                     *           "lastUpdated": "2026-01-31T08:15:00.000Z"
                     *         },
                     *         "patient": {
                     *           "reference": "Patient/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a"
                     *         },
                     *         "code": {
                     *           "system": "https://ofctx.example/fhir/CodeSystem/allergen",
                     *           "code": "PCN",
                     *           "display": "Penicillin"
                     *         },
                     *         "clinicalStatus": "active"
                     *       },
                     *       "meta": null,
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["AllergyIntoleranceRead"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getFhirCapabilityStatement: {
        parameters: {
            query?: {
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
            };
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CapabilityStatement. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirCapabilityStatement"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirSubscription: {
        parameters: {
            query?: {
                /** @description The IG's statuses, comma-separated. */
                status?: string;
                /** @description The endpoint, exactly. */
                url?: string;
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
            };
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A searchset Bundle of Subscriptions. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "resourceType": "Bundle",
                     *       "type": "searchset",
                     *       "total": 1,
                     *       "entry": [
                     *         {
                     *           "fullUrl": "https://ofctx.example/api/v1/fhir/R4/d85f7eda-bc49-41cf-a1d9-ac510aca7055/a7b13f8f-ee1b-415f-b8a4-968171a599d4/Subscription/fad57cf7-800b-4a5c-887d-74e509797811",
                     *           "resource": {
                     *             "resourceType": "Subscription",
                     *             "id": "fad57cf7-800b-4a5c-887d-74e509797811",
                     *             "meta": {
                     *               "lastUpdated": "2026-11-28T03:21:53.278Z",
                     *               "profile": [
                     *                 "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-subscription"
                     *               ]
                     *             },
                     *             "status": "active",
                     *             "reason": "Admissions for the HIE",
                     *             "criteria": "https://ofctx.dev/fhir/SubscriptionTopic/resident-admitted",
                     *             "channel": {
                     *               "extension": [
                     *                 {
                     *                   "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-heartbeat-period",
                     *                   "valueUnsignedInt": 3600
                     *                 },
                     *                 {
                     *                   "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-timeout",
                     *                   "valueUnsignedInt": 2
                     *                 }
                     *               ],
                     *               "type": "rest-hook",
                     *               "endpoint": "https://partner.example/fhir/notify",
                     *               "payload": "application/fhir+json",
                     *               "_payload": {
                     *                 "extension": [
                     *                   {
                     *                     "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-payload-content",
                     *                     "valueCode": "id-only"
                     *                   }
                     *                 ]
                     *               },
                     *               "header": [
                     *                 "Authorization: ***"
                     *               ]
                     *             }
                     *           },
                     *           "search": {
                     *             "mode": "match"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/fhir+json": components["schemas"]["FhirSubscriptionSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    createFhirSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/fhir+json": components["schemas"]["FhirSubscription"];
            };
        };
        responses: {
            /** @description The Subscription as stored (status `requested` until the handshake is accepted). */
            201: {
                headers: {
                    /** @description The Subscription's URL. */
                    Location?: string;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "resourceType": "Subscription",
                     *       "id": "fad57cf7-800b-4a5c-887d-74e509797811",
                     *       "meta": {
                     *         "lastUpdated": "2026-11-28T03:21:53.278Z",
                     *         "profile": [
                     *           "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-subscription"
                     *         ]
                     *       },
                     *       "status": "requested",
                     *       "reason": "Admissions for the HIE",
                     *       "criteria": "https://ofctx.dev/fhir/SubscriptionTopic/resident-admitted",
                     *       "channel": {
                     *         "extension": [
                     *           {
                     *             "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-heartbeat-period",
                     *             "valueUnsignedInt": 3600
                     *           },
                     *           {
                     *             "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-timeout",
                     *             "valueUnsignedInt": 2
                     *           }
                     *         ],
                     *         "type": "rest-hook",
                     *         "endpoint": "https://partner.example/fhir/notify",
                     *         "payload": "application/fhir+json",
                     *         "_payload": {
                     *           "extension": [
                     *             {
                     *               "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-payload-content",
                     *               "valueCode": "id-only"
                     *             }
                     *           ]
                     *         },
                     *         "header": [
                     *           "Authorization: ***"
                     *         ]
                     *       }
                     *     }
                     */
                    "application/fhir+json": components["schemas"]["FhirSubscription"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            409: components["responses"]["FhirConflict"];
            415: components["responses"]["FhirUnsupportedMediaType"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    readFhirSubscription: {
        parameters: {
            query?: {
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
            };
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Subscription. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "resourceType": "Subscription",
                     *       "id": "fad57cf7-800b-4a5c-887d-74e509797811",
                     *       "meta": {
                     *         "lastUpdated": "2026-11-28T03:21:53.278Z",
                     *         "profile": [
                     *           "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-subscription"
                     *         ]
                     *       },
                     *       "status": "active",
                     *       "reason": "Admissions for the HIE",
                     *       "criteria": "https://ofctx.dev/fhir/SubscriptionTopic/resident-admitted",
                     *       "channel": {
                     *         "extension": [
                     *           {
                     *             "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-heartbeat-period",
                     *             "valueUnsignedInt": 3600
                     *           },
                     *           {
                     *             "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-timeout",
                     *             "valueUnsignedInt": 2
                     *           }
                     *         ],
                     *         "type": "rest-hook",
                     *         "endpoint": "https://partner.example/fhir/notify",
                     *         "payload": "application/fhir+json",
                     *         "_payload": {
                     *           "extension": [
                     *             {
                     *               "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-payload-content",
                     *               "valueCode": "id-only"
                     *             }
                     *           ]
                     *         },
                     *         "header": [
                     *           "Authorization: ***"
                     *         ]
                     *       }
                     *     }
                     */
                    "application/fhir+json": components["schemas"]["FhirSubscription"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    updateFhirSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/fhir+json": components["schemas"]["FhirSubscription"];
            };
        };
        responses: {
            /** @description The Subscription as updated. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "resourceType": "Subscription",
                     *       "id": "fad57cf7-800b-4a5c-887d-74e509797811",
                     *       "meta": {
                     *         "lastUpdated": "2026-11-28T03:21:53.278Z",
                     *         "profile": [
                     *           "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-subscription"
                     *         ]
                     *       },
                     *       "status": "off",
                     *       "reason": "Admissions for the HIE",
                     *       "criteria": "https://ofctx.dev/fhir/SubscriptionTopic/resident-admitted",
                     *       "channel": {
                     *         "extension": [
                     *           {
                     *             "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-heartbeat-period",
                     *             "valueUnsignedInt": 3600
                     *           },
                     *           {
                     *             "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-timeout",
                     *             "valueUnsignedInt": 2
                     *           }
                     *         ],
                     *         "type": "rest-hook",
                     *         "endpoint": "https://partner.example/fhir/notify",
                     *         "payload": "application/fhir+json",
                     *         "_payload": {
                     *           "extension": [
                     *             {
                     *               "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-payload-content",
                     *               "valueCode": "id-only"
                     *             }
                     *           ]
                     *         },
                     *         "header": [
                     *           "Authorization: ***"
                     *         ]
                     *       }
                     *     }
                     */
                    "application/fhir+json": components["schemas"]["FhirSubscription"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            409: components["responses"]["FhirConflict"];
            415: components["responses"]["FhirUnsupportedMediaType"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    deleteFhirSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An OperationOutcome saying it is deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "resourceType": "OperationOutcome",
                     *       "issue": [
                     *         {
                     *           "severity": "information",
                     *           "code": "informational",
                     *           "diagnostics": "Subscription/fad57cf7-800b-4a5c-887d-74e509797811 deleted: nothing more is sent to it."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/fhir+json": components["schemas"]["OperationOutcome"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    fhirSubscriptionStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The status. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "resourceType": "Bundle",
                     *       "type": "searchset",
                     *       "total": 1,
                     *       "entry": [
                     *         {
                     *           "fullUrl": "urn:uuid:e0dbae2b-603b-4a93-b798-57d50896a2ab",
                     *           "resource": {
                     *             "resourceType": "Parameters",
                     *             "id": "e0dbae2b-603b-4a93-b798-57d50896a2ab",
                     *             "meta": {
                     *               "profile": [
                     *                 "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-subscription-status-r4"
                     *               ]
                     *             },
                     *             "parameter": [
                     *               {
                     *                 "name": "subscription",
                     *                 "valueReference": {
                     *                   "reference": "https://ofctx.example/api/v1/fhir/R4/d85f7eda-bc49-41cf-a1d9-ac510aca7055/a7b13f8f-ee1b-415f-b8a4-968171a599d4/Subscription/fad57cf7-800b-4a5c-887d-74e509797811"
                     *                 }
                     *               },
                     *               {
                     *                 "name": "topic",
                     *                 "valueCanonical": "https://ofctx.dev/fhir/SubscriptionTopic/resident-admitted"
                     *               },
                     *               {
                     *                 "name": "status",
                     *                 "valueCode": "active"
                     *               },
                     *               {
                     *                 "name": "type",
                     *                 "valueCode": "query-status"
                     *               },
                     *               {
                     *                 "name": "events-since-subscription-start",
                     *                 "valueString": "1"
                     *               }
                     *             ]
                     *           },
                     *           "search": {
                     *             "mode": "match"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/fhir+json": components["schemas"]["FhirSubscriptionStatusSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    fhirSubscriptionEvents: {
        parameters: {
            query?: {
                /** @description The first event number (inclusive). */
                eventsSinceNumber?: string;
                /** @description The last event number (inclusive). */
                eventsUntilNumber?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The events. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "resourceType": "Bundle",
                     *       "id": "f3ee96b1-9dd1-48c5-a079-2f9de2a945d0",
                     *       "meta": {
                     *         "profile": [
                     *           "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-subscription-notification-r4"
                     *         ]
                     *       },
                     *       "type": "history",
                     *       "timestamp": "2026-11-28T03:21:58.430Z",
                     *       "entry": [
                     *         {
                     *           "fullUrl": "urn:uuid:7628aa31-0835-4d55-88bf-fa41baa63439",
                     *           "resource": {
                     *             "resourceType": "Parameters",
                     *             "id": "7628aa31-0835-4d55-88bf-fa41baa63439",
                     *             "meta": {
                     *               "profile": [
                     *                 "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-subscription-status-r4"
                     *               ]
                     *             },
                     *             "parameter": [
                     *               {
                     *                 "name": "subscription",
                     *                 "valueReference": {
                     *                   "reference": "https://ofctx.example/api/v1/fhir/R4/d85f7eda-bc49-41cf-a1d9-ac510aca7055/a7b13f8f-ee1b-415f-b8a4-968171a599d4/Subscription/fad57cf7-800b-4a5c-887d-74e509797811"
                     *                 }
                     *               },
                     *               {
                     *                 "name": "topic",
                     *                 "valueCanonical": "https://ofctx.dev/fhir/SubscriptionTopic/resident-admitted"
                     *               },
                     *               {
                     *                 "name": "status",
                     *                 "valueCode": "active"
                     *               },
                     *               {
                     *                 "name": "type",
                     *                 "valueCode": "query-event"
                     *               },
                     *               {
                     *                 "name": "events-since-subscription-start",
                     *                 "valueString": "1"
                     *               },
                     *               {
                     *                 "name": "notification-event",
                     *                 "part": [
                     *                   {
                     *                     "name": "event-number",
                     *                     "valueString": "1"
                     *                   },
                     *                   {
                     *                     "name": "timestamp",
                     *                     "valueInstant": "2026-11-28T03:21:56.570Z"
                     *                   },
                     *                   {
                     *                     "name": "focus",
                     *                     "valueReference": {
                     *                       "reference": "https://ofctx.example/api/v1/fhir/R4/d85f7eda-bc49-41cf-a1d9-ac510aca7055/a7b13f8f-ee1b-415f-b8a4-968171a599d4/Patient/6fd8af75-8305-4e6d-a4d1-1ca41b161592"
                     *                     }
                     *                   }
                     *                 ]
                     *               }
                     *             ]
                     *           },
                     *           "request": {
                     *             "method": "GET",
                     *             "url": "https://ofctx.example/api/v1/fhir/R4/d85f7eda-bc49-41cf-a1d9-ac510aca7055/a7b13f8f-ee1b-415f-b8a4-968171a599d4/Subscription/fad57cf7-800b-4a5c-887d-74e509797811/$status"
                     *           },
                     *           "response": {
                     *             "status": "200"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/fhir+json": components["schemas"]["FhirSubscriptionNotification"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirBasic: {
        parameters: {
            query?: {
                /** @description `SubscriptionTopic` (or `http://hl7.org/fhir/fhir-types|SubscriptionTopic`). */
                code?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A searchset Bundle of the topics. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "resourceType": "Bundle",
                     *       "type": "searchset",
                     *       "total": 8,
                     *       "entry": [
                     *         {
                     *           "fullUrl": "https://ofctx.example/api/v1/fhir/R4/d85f7eda-bc49-41cf-a1d9-ac510aca7055/a7b13f8f-ee1b-415f-b8a4-968171a599d4/Basic/resident-admitted",
                     *           "resource": {
                     *             "resourceType": "Basic",
                     *             "id": "resident-admitted",
                     *             "meta": {
                     *               "profile": [
                     *                 "http://hl7.org/fhir/5.0/StructureDefinition/profile-SubscriptionTopic"
                     *               ]
                     *             },
                     *             "extension": [
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.url",
                     *                 "valueUri": "https://ofctx.dev/fhir/SubscriptionTopic/resident-admitted"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.title",
                     *                 "valueString": "Resident admitted"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.status",
                     *                 "valueCode": "active"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.description",
                     *                 "valueMarkdown": "A resident is admitted to the facility (ofctx event resident.admitted)."
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.eventTrigger",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "ofctx event resident.admitted"
                     *                   },
                     *                   {
                     *                     "url": "event",
                     *                     "valueCodeableConcept": {
                     *                       "coding": [
                     *                         {
                     *                           "system": "https://ofctx.dev/fhir/CodeSystem/event-type",
                     *                           "code": "resident.admitted"
                     *                         }
                     *                       ]
                     *                     }
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "http://hl7.org/fhir/StructureDefinition/Patient"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident's identifier, `[system|]value` (an MRN, say)."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "identifier"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident, by its ofctx id."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "_id"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.notificationShape",
                     *                 "extension": [
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   }
                     *                 ]
                     *               }
                     *             ],
                     *             "code": {
                     *               "coding": [
                     *                 {
                     *                   "system": "http://hl7.org/fhir/fhir-types",
                     *                   "code": "SubscriptionTopic"
                     *                 }
                     *               ]
                     *             }
                     *           },
                     *           "search": {
                     *             "mode": "match"
                     *           }
                     *         },
                     *         {
                     *           "fullUrl": "https://ofctx.example/api/v1/fhir/R4/d85f7eda-bc49-41cf-a1d9-ac510aca7055/a7b13f8f-ee1b-415f-b8a4-968171a599d4/Basic/resident-discharged",
                     *           "resource": {
                     *             "resourceType": "Basic",
                     *             "id": "resident-discharged",
                     *             "meta": {
                     *               "profile": [
                     *                 "http://hl7.org/fhir/5.0/StructureDefinition/profile-SubscriptionTopic"
                     *               ]
                     *             },
                     *             "extension": [
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.url",
                     *                 "valueUri": "https://ofctx.dev/fhir/SubscriptionTopic/resident-discharged"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.title",
                     *                 "valueString": "Resident discharged"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.status",
                     *                 "valueCode": "active"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.description",
                     *                 "valueMarkdown": "A resident is discharged (resident.discharged)."
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.eventTrigger",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "ofctx event resident.discharged"
                     *                   },
                     *                   {
                     *                     "url": "event",
                     *                     "valueCodeableConcept": {
                     *                       "coding": [
                     *                         {
                     *                           "system": "https://ofctx.dev/fhir/CodeSystem/event-type",
                     *                           "code": "resident.discharged"
                     *                         }
                     *                       ]
                     *                     }
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "http://hl7.org/fhir/StructureDefinition/Patient"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident's identifier, `[system|]value` (an MRN, say)."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "identifier"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident, by its ofctx id."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "_id"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.notificationShape",
                     *                 "extension": [
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   }
                     *                 ]
                     *               }
                     *             ],
                     *             "code": {
                     *               "coding": [
                     *                 {
                     *                   "system": "http://hl7.org/fhir/fhir-types",
                     *                   "code": "SubscriptionTopic"
                     *                 }
                     *               ]
                     *             }
                     *           },
                     *           "search": {
                     *             "mode": "match"
                     *           }
                     *         },
                     *         {
                     *           "fullUrl": "https://ofctx.example/api/v1/fhir/R4/d85f7eda-bc49-41cf-a1d9-ac510aca7055/a7b13f8f-ee1b-415f-b8a4-968171a599d4/Basic/resident-transferred",
                     *           "resource": {
                     *             "resourceType": "Basic",
                     *             "id": "resident-transferred",
                     *             "meta": {
                     *               "profile": [
                     *                 "http://hl7.org/fhir/5.0/StructureDefinition/profile-SubscriptionTopic"
                     *               ]
                     *             },
                     *             "extension": [
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.url",
                     *                 "valueUri": "https://ofctx.dev/fhir/SubscriptionTopic/resident-transferred"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.title",
                     *                 "valueString": "Resident transferred"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.status",
                     *                 "valueCode": "active"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.description",
                     *                 "valueMarkdown": "A resident is transferred between facilities; the facility is the one the resident now belongs to (resident.transferred)."
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.eventTrigger",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "ofctx event resident.transferred"
                     *                   },
                     *                   {
                     *                     "url": "event",
                     *                     "valueCodeableConcept": {
                     *                       "coding": [
                     *                         {
                     *                           "system": "https://ofctx.dev/fhir/CodeSystem/event-type",
                     *                           "code": "resident.transferred"
                     *                         }
                     *                       ]
                     *                     }
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "http://hl7.org/fhir/StructureDefinition/Patient"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident's identifier, `[system|]value` (an MRN, say)."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "identifier"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident, by its ofctx id."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "_id"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.notificationShape",
                     *                 "extension": [
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   }
                     *                 ]
                     *               }
                     *             ],
                     *             "code": {
                     *               "coding": [
                     *                 {
                     *                   "system": "http://hl7.org/fhir/fhir-types",
                     *                   "code": "SubscriptionTopic"
                     *                 }
                     *               ]
                     *             }
                     *           },
                     *           "search": {
                     *             "mode": "match"
                     *           }
                     *         },
                     *         {
                     *           "fullUrl": "https://ofctx.example/api/v1/fhir/R4/d85f7eda-bc49-41cf-a1d9-ac510aca7055/a7b13f8f-ee1b-415f-b8a4-968171a599d4/Basic/resident-merged",
                     *           "resource": {
                     *             "resourceType": "Basic",
                     *             "id": "resident-merged",
                     *             "meta": {
                     *               "profile": [
                     *                 "http://hl7.org/fhir/5.0/StructureDefinition/profile-SubscriptionTopic"
                     *               ]
                     *             },
                     *             "extension": [
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.url",
                     *                 "valueUri": "https://ofctx.dev/fhir/SubscriptionTopic/resident-merged"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.title",
                     *                 "valueString": "Resident records merged"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.status",
                     *                 "valueCode": "active"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.description",
                     *                 "valueMarkdown": "Two records of one resident are merged; the focus is the surviving Patient (resident.merged)."
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.eventTrigger",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "ofctx event resident.merged"
                     *                   },
                     *                   {
                     *                     "url": "event",
                     *                     "valueCodeableConcept": {
                     *                       "coding": [
                     *                         {
                     *                           "system": "https://ofctx.dev/fhir/CodeSystem/event-type",
                     *                           "code": "resident.merged"
                     *                         }
                     *                       ]
                     *                     }
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "http://hl7.org/fhir/StructureDefinition/Patient"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident's identifier, `[system|]value` (an MRN, say)."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "identifier"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident, by its ofctx id."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "_id"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.notificationShape",
                     *                 "extension": [
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   }
                     *                 ]
                     *               }
                     *             ],
                     *             "code": {
                     *               "coding": [
                     *                 {
                     *                   "system": "http://hl7.org/fhir/fhir-types",
                     *                   "code": "SubscriptionTopic"
                     *                 }
                     *               ]
                     *             }
                     *           },
                     *           "search": {
                     *             "mode": "match"
                     *           }
                     *         },
                     *         {
                     *           "fullUrl": "https://ofctx.example/api/v1/fhir/R4/d85f7eda-bc49-41cf-a1d9-ac510aca7055/a7b13f8f-ee1b-415f-b8a4-968171a599d4/Basic/coverage-updated",
                     *           "resource": {
                     *             "resourceType": "Basic",
                     *             "id": "coverage-updated",
                     *             "meta": {
                     *               "profile": [
                     *                 "http://hl7.org/fhir/5.0/StructureDefinition/profile-SubscriptionTopic"
                     *               ]
                     *             },
                     *             "extension": [
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.url",
                     *                 "valueUri": "https://ofctx.dev/fhir/SubscriptionTopic/coverage-updated"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.title",
                     *                 "valueString": "Coverage changed"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.status",
                     *                 "valueCode": "active"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.description",
                     *                 "valueMarkdown": "A resident's payer coverage changes; the focus is the Patient, whose Coverages are read with coverage.read (coverage.updated)."
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.eventTrigger",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "ofctx event coverage.updated"
                     *                   },
                     *                   {
                     *                     "url": "event",
                     *                     "valueCodeableConcept": {
                     *                       "coding": [
                     *                         {
                     *                           "system": "https://ofctx.dev/fhir/CodeSystem/event-type",
                     *                           "code": "coverage.updated"
                     *                         }
                     *                       ]
                     *                     }
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "http://hl7.org/fhir/StructureDefinition/Patient"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident's identifier, `[system|]value` (an MRN, say)."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "identifier"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident, by its ofctx id."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "_id"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.notificationShape",
                     *                 "extension": [
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   }
                     *                 ]
                     *               }
                     *             ],
                     *             "code": {
                     *               "coding": [
                     *                 {
                     *                   "system": "http://hl7.org/fhir/fhir-types",
                     *                   "code": "SubscriptionTopic"
                     *                 }
                     *               ]
                     *             }
                     *           },
                     *           "search": {
                     *             "mode": "match"
                     *           }
                     *         },
                     *         {
                     *           "fullUrl": "https://ofctx.example/api/v1/fhir/R4/d85f7eda-bc49-41cf-a1d9-ac510aca7055/a7b13f8f-ee1b-415f-b8a4-968171a599d4/Basic/condition-created",
                     *           "resource": {
                     *             "resourceType": "Basic",
                     *             "id": "condition-created",
                     *             "meta": {
                     *               "profile": [
                     *                 "http://hl7.org/fhir/5.0/StructureDefinition/profile-SubscriptionTopic"
                     *               ]
                     *             },
                     *             "extension": [
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.url",
                     *                 "valueUri": "https://ofctx.dev/fhir/SubscriptionTopic/condition-created"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.title",
                     *                 "valueString": "New condition"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.status",
                     *                 "valueCode": "active"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.description",
                     *                 "valueMarkdown": "A new diagnosis is recorded for a resident (clinical.condition.created)."
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.eventTrigger",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "ofctx event clinical.condition.created"
                     *                   },
                     *                   {
                     *                     "url": "event",
                     *                     "valueCodeableConcept": {
                     *                       "coding": [
                     *                         {
                     *                           "system": "https://ofctx.dev/fhir/CodeSystem/event-type",
                     *                           "code": "clinical.condition.created"
                     *                         }
                     *                       ]
                     *                     }
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "http://hl7.org/fhir/StructureDefinition/Patient"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident's identifier, `[system|]value` (an MRN, say)."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "identifier"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident, by its ofctx id."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "_id"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.notificationShape",
                     *                 "extension": [
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   }
                     *                 ]
                     *               }
                     *             ],
                     *             "code": {
                     *               "coding": [
                     *                 {
                     *                   "system": "http://hl7.org/fhir/fhir-types",
                     *                   "code": "SubscriptionTopic"
                     *                 }
                     *               ]
                     *             }
                     *           },
                     *           "search": {
                     *             "mode": "match"
                     *           }
                     *         },
                     *         {
                     *           "fullUrl": "https://ofctx.example/api/v1/fhir/R4/d85f7eda-bc49-41cf-a1d9-ac510aca7055/a7b13f8f-ee1b-415f-b8a4-968171a599d4/Basic/order-created",
                     *           "resource": {
                     *             "resourceType": "Basic",
                     *             "id": "order-created",
                     *             "meta": {
                     *               "profile": [
                     *                 "http://hl7.org/fhir/5.0/StructureDefinition/profile-SubscriptionTopic"
                     *               ]
                     *             },
                     *             "extension": [
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.url",
                     *                 "valueUri": "https://ofctx.dev/fhir/SubscriptionTopic/order-created"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.title",
                     *                 "valueString": "New order"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.status",
                     *                 "valueCode": "active"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.description",
                     *                 "valueMarkdown": "A new order (a medication, a service) is created for a resident (clinical.order.created)."
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.eventTrigger",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "ofctx event clinical.order.created"
                     *                   },
                     *                   {
                     *                     "url": "event",
                     *                     "valueCodeableConcept": {
                     *                       "coding": [
                     *                         {
                     *                           "system": "https://ofctx.dev/fhir/CodeSystem/event-type",
                     *                           "code": "clinical.order.created"
                     *                         }
                     *                       ]
                     *                     }
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "http://hl7.org/fhir/StructureDefinition/Patient"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident's identifier, `[system|]value` (an MRN, say)."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "identifier"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident, by its ofctx id."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "_id"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.notificationShape",
                     *                 "extension": [
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   }
                     *                 ]
                     *               }
                     *             ],
                     *             "code": {
                     *               "coding": [
                     *                 {
                     *                   "system": "http://hl7.org/fhir/fhir-types",
                     *                   "code": "SubscriptionTopic"
                     *                 }
                     *               ]
                     *             }
                     *           },
                     *           "search": {
                     *             "mode": "match"
                     *           }
                     *         },
                     *         {
                     *           "fullUrl": "https://ofctx.example/api/v1/fhir/R4/d85f7eda-bc49-41cf-a1d9-ac510aca7055/a7b13f8f-ee1b-415f-b8a4-968171a599d4/Basic/result-created",
                     *           "resource": {
                     *             "resourceType": "Basic",
                     *             "id": "result-created",
                     *             "meta": {
                     *               "profile": [
                     *                 "http://hl7.org/fhir/5.0/StructureDefinition/profile-SubscriptionTopic"
                     *               ]
                     *             },
                     *             "extension": [
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.url",
                     *                 "valueUri": "https://ofctx.dev/fhir/SubscriptionTopic/result-created"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.title",
                     *                 "valueString": "New result"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.status",
                     *                 "valueCode": "active"
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.description",
                     *                 "valueMarkdown": "A resident's results arrive as a new DiagnosticReport, or a report's status changes; the focus is the DiagnosticReport (clinical.result.created)."
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.eventTrigger",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "ofctx event clinical.result.created"
                     *                   },
                     *                   {
                     *                     "url": "event",
                     *                     "valueCodeableConcept": {
                     *                       "coding": [
                     *                         {
                     *                           "system": "https://ofctx.dev/fhir/CodeSystem/event-type",
                     *                           "code": "clinical.result.created"
                     *                         }
                     *                       ]
                     *                     }
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "http://hl7.org/fhir/StructureDefinition/DiagnosticReport"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident's identifier, `[system|]value` (an MRN, say)."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "identifier"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The resident, by its ofctx id."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Patient"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "_id"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "The report's category, `[system|]code` (v2-0074, `LAB`)."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "DiagnosticReport"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "category"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *                 "extension": [
                     *                   {
                     *                     "url": "description",
                     *                     "valueMarkdown": "A category one of the report's results carries, `[system|]code` (`laboratory`)."
                     *                   },
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "Observation"
                     *                   },
                     *                   {
                     *                     "url": "filterParameter",
                     *                     "valueString": "category"
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.notificationShape",
                     *                 "extension": [
                     *                   {
                     *                     "url": "resource",
                     *                     "valueUri": "DiagnosticReport"
                     *                   }
                     *                 ]
                     *               }
                     *             ],
                     *             "code": {
                     *               "coding": [
                     *                 {
                     *                   "system": "http://hl7.org/fhir/fhir-types",
                     *                   "code": "SubscriptionTopic"
                     *                 }
                     *               ]
                     *             }
                     *           },
                     *           "search": {
                     *             "mode": "match"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/fhir+json": components["schemas"]["FhirTopicSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    readFhirBasic: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The topic's name, its Basic id (the last segment of its canonical, `resident-admitted`). */
                topic: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The topic. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "resourceType": "Basic",
                     *       "id": "resident-admitted",
                     *       "meta": {
                     *         "profile": [
                     *           "http://hl7.org/fhir/5.0/StructureDefinition/profile-SubscriptionTopic"
                     *         ]
                     *       },
                     *       "extension": [
                     *         {
                     *           "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.url",
                     *           "valueUri": "https://ofctx.dev/fhir/SubscriptionTopic/resident-admitted"
                     *         },
                     *         {
                     *           "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.title",
                     *           "valueString": "Resident admitted"
                     *         },
                     *         {
                     *           "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.status",
                     *           "valueCode": "active"
                     *         },
                     *         {
                     *           "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.description",
                     *           "valueMarkdown": "A resident is admitted to the facility (ofctx event resident.admitted)."
                     *         },
                     *         {
                     *           "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.eventTrigger",
                     *           "extension": [
                     *             {
                     *               "url": "description",
                     *               "valueMarkdown": "ofctx event resident.admitted"
                     *             },
                     *             {
                     *               "url": "event",
                     *               "valueCodeableConcept": {
                     *                 "coding": [
                     *                   {
                     *                     "system": "https://ofctx.dev/fhir/CodeSystem/event-type",
                     *                     "code": "resident.admitted"
                     *                   }
                     *                 ]
                     *               }
                     *             },
                     *             {
                     *               "url": "resource",
                     *               "valueUri": "http://hl7.org/fhir/StructureDefinition/Patient"
                     *             }
                     *           ]
                     *         },
                     *         {
                     *           "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *           "extension": [
                     *             {
                     *               "url": "description",
                     *               "valueMarkdown": "The resident's identifier, `[system|]value` (an MRN, say)."
                     *             },
                     *             {
                     *               "url": "resource",
                     *               "valueUri": "Patient"
                     *             },
                     *             {
                     *               "url": "filterParameter",
                     *               "valueString": "identifier"
                     *             }
                     *           ]
                     *         },
                     *         {
                     *           "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.canFilterBy",
                     *           "extension": [
                     *             {
                     *               "url": "description",
                     *               "valueMarkdown": "The resident, by its ofctx id."
                     *             },
                     *             {
                     *               "url": "resource",
                     *               "valueUri": "Patient"
                     *             },
                     *             {
                     *               "url": "filterParameter",
                     *               "valueString": "_id"
                     *             }
                     *           ]
                     *         },
                     *         {
                     *           "url": "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic.notificationShape",
                     *           "extension": [
                     *             {
                     *               "url": "resource",
                     *               "valueUri": "Patient"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "code": {
                     *         "coding": [
                     *           {
                     *             "system": "http://hl7.org/fhir/fhir-types",
                     *             "code": "SubscriptionTopic"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/fhir+json": components["schemas"]["FhirTopicBasic"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirPatient: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description A business identifier (Patient: MRN, Medicare MBI `http://hl7.org/fhir/sid/us-mbi|...`, member id; Coverage: its identifier), matched exactly on system and value. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                identifier?: components["parameters"]["FhirIdentifier"];
                /** @description Any part of the name, family or given. Starts with the value, ignoring case and accents (`okafo` finds Okafor, `nunez` finds Núñez); `:exact` (as `NAME:exact=`) the exact value, `:contains` anywhere in it. Several separated by commas match any. */
                name?: components["parameters"]["FhirName"];
                /** @description The family name. Starts with the value, ignoring case and accents (`okafo` finds Okafor, `nunez` finds Núñez); `:exact` (as `NAME:exact=`) the exact value, `:contains` anywhere in it. Several separated by commas match any. */
                family?: components["parameters"]["FhirFamily"];
                /** @description A given name. Starts with the value, ignoring case and accents (`okafo` finds Okafor, `nunez` finds Núñez); `:exact` (as `NAME:exact=`) the exact value, `:contains` anywhere in it. Several separated by commas match any. */
                given?: components["parameters"]["FhirGiven"];
                /** @description The birth date. A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range. */
                birthdate?: components["parameters"]["FhirBirthdate"];
                /** @description `male`, `female`, `other` or `unknown` (http://hl7.org/fhir/administrative-gender). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                gender?: components["parameters"]["FhirGender"];
                /** @description `true` or `false` (a discharged resident is `false`). */
                active?: components["parameters"]["FhirActive"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A searchset Bundle of Patient resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirPatientByPost: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description A business identifier (Patient: MRN, Medicare MBI `http://hl7.org/fhir/sid/us-mbi|...`, member id; Coverage: its identifier), matched exactly on system and value. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                identifier?: components["parameters"]["FhirIdentifier"];
                /** @description Any part of the name, family or given. Starts with the value, ignoring case and accents (`okafo` finds Okafor, `nunez` finds Núñez); `:exact` (as `NAME:exact=`) the exact value, `:contains` anywhere in it. Several separated by commas match any. */
                name?: components["parameters"]["FhirName"];
                /** @description The family name. Starts with the value, ignoring case and accents (`okafo` finds Okafor, `nunez` finds Núñez); `:exact` (as `NAME:exact=`) the exact value, `:contains` anywhere in it. Several separated by commas match any. */
                family?: components["parameters"]["FhirFamily"];
                /** @description A given name. Starts with the value, ignoring case and accents (`okafo` finds Okafor, `nunez` finds Núñez); `:exact` (as `NAME:exact=`) the exact value, `:contains` anywhere in it. Several separated by commas match any. */
                given?: components["parameters"]["FhirGiven"];
                /** @description The birth date. A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range. */
                birthdate?: components["parameters"]["FhirBirthdate"];
                /** @description `male`, `female`, `other` or `unknown` (http://hl7.org/fhir/administrative-gender). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                gender?: components["parameters"]["FhirGender"];
                /** @description `true` or `false` (a discharged resident is `false`). */
                active?: components["parameters"]["FhirActive"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["FhirSearchForm"];
            };
        };
        responses: {
            /** @description A searchset Bundle of Patient resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            415: components["responses"]["FhirUnsupportedMediaType"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    readFhirPatient: {
        parameters: {
            query?: {
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
            };
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Patient. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirPatient"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirCoverage: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                beneficiary?: components["parameters"]["FhirBeneficiary"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description A business identifier (Patient: MRN, Medicare MBI `http://hl7.org/fhir/sid/us-mbi|...`, member id; Coverage: its identifier), matched exactly on system and value. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                identifier?: components["parameters"]["FhirIdentifier"];
                /** @description The resource status (Coverage: `active`, `cancelled`, `draft`, `entered-in-error`; Observation: `final`, `amended`...; requests: their R4 status codes). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                status?: components["parameters"]["FhirStatus"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A searchset Bundle of Coverage resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirCoverageByPost: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                beneficiary?: components["parameters"]["FhirBeneficiary"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description A business identifier (Patient: MRN, Medicare MBI `http://hl7.org/fhir/sid/us-mbi|...`, member id; Coverage: its identifier), matched exactly on system and value. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                identifier?: components["parameters"]["FhirIdentifier"];
                /** @description The resource status (Coverage: `active`, `cancelled`, `draft`, `entered-in-error`; Observation: `final`, `amended`...; requests: their R4 status codes). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                status?: components["parameters"]["FhirStatus"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["FhirSearchForm"];
            };
        };
        responses: {
            /** @description A searchset Bundle of Coverage resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            415: components["responses"]["FhirUnsupportedMediaType"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    readFhirCoverage: {
        parameters: {
            query?: {
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
            };
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Coverage. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirCoverage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirObservation: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                subject?: components["parameters"]["FhirSubject"];
                /** @description Observation: `vital-signs` (http://terminology.hl7.org/CodeSystem/observation-category) for the vital signs, and the category the source gave (`laboratory` for lab results). Condition, ServiceRequest, MedicationRequest: the category the sender coded (its first coding). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                category?: components["parameters"]["FhirCategory"];
                /** @description What the resource is about: the observed LOINC code, the allergen, the diagnosis, what was ordered, the medication. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                code?: components["parameters"]["FhirCode"];
                /** @description When the observation was made (effectiveDateTime). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range. */
                date?: components["parameters"]["FhirDate"];
                /** @description The resource status (Coverage: `active`, `cancelled`, `draft`, `entered-in-error`; Observation: `final`, `amended`...; requests: their R4 status codes). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                status?: components["parameters"]["FhirStatus"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A searchset Bundle of Observation resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirObservationByPost: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                subject?: components["parameters"]["FhirSubject"];
                /** @description Observation: `vital-signs` (http://terminology.hl7.org/CodeSystem/observation-category) for the vital signs, and the category the source gave (`laboratory` for lab results). Condition, ServiceRequest, MedicationRequest: the category the sender coded (its first coding). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                category?: components["parameters"]["FhirCategory"];
                /** @description What the resource is about: the observed LOINC code, the allergen, the diagnosis, what was ordered, the medication. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                code?: components["parameters"]["FhirCode"];
                /** @description When the observation was made (effectiveDateTime). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range. */
                date?: components["parameters"]["FhirDate"];
                /** @description The resource status (Coverage: `active`, `cancelled`, `draft`, `entered-in-error`; Observation: `final`, `amended`...; requests: their R4 status codes). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                status?: components["parameters"]["FhirStatus"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["FhirSearchForm"];
            };
        };
        responses: {
            /** @description A searchset Bundle of Observation resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            415: components["responses"]["FhirUnsupportedMediaType"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    readFhirObservation: {
        parameters: {
            query?: {
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
            };
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Observation. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirObservation"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirAllergyIntolerance: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description AllergyIntolerance: `active`, `inactive`, `resolved`; Condition: `active`, `recurrence`, `relapse`, `inactive`, `remission`, `resolved`. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                "clinical-status"?: components["parameters"]["FhirClinicalStatus"];
                /** @description What the resource is about: the observed LOINC code, the allergen, the diagnosis, what was ordered, the medication. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                code?: components["parameters"]["FhirCode"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A searchset Bundle of AllergyIntolerance resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirAllergyIntoleranceByPost: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description AllergyIntolerance: `active`, `inactive`, `resolved`; Condition: `active`, `recurrence`, `relapse`, `inactive`, `remission`, `resolved`. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                "clinical-status"?: components["parameters"]["FhirClinicalStatus"];
                /** @description What the resource is about: the observed LOINC code, the allergen, the diagnosis, what was ordered, the medication. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                code?: components["parameters"]["FhirCode"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["FhirSearchForm"];
            };
        };
        responses: {
            /** @description A searchset Bundle of AllergyIntolerance resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            415: components["responses"]["FhirUnsupportedMediaType"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    readFhirAllergyIntolerance: {
        parameters: {
            query?: {
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
            };
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The AllergyIntolerance. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirAllergyIntolerance"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirCondition: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                subject?: components["parameters"]["FhirSubject"];
                /** @description Observation: `vital-signs` (http://terminology.hl7.org/CodeSystem/observation-category) for the vital signs, and the category the source gave (`laboratory` for lab results). Condition, ServiceRequest, MedicationRequest: the category the sender coded (its first coding). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                category?: components["parameters"]["FhirCategory"];
                /** @description AllergyIntolerance: `active`, `inactive`, `resolved`; Condition: `active`, `recurrence`, `relapse`, `inactive`, `remission`, `resolved`. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                "clinical-status"?: components["parameters"]["FhirClinicalStatus"];
                /** @description What the resource is about: the observed LOINC code, the allergen, the diagnosis, what was ordered, the medication. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                code?: components["parameters"]["FhirCode"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A searchset Bundle of Condition resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirConditionByPost: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                subject?: components["parameters"]["FhirSubject"];
                /** @description Observation: `vital-signs` (http://terminology.hl7.org/CodeSystem/observation-category) for the vital signs, and the category the source gave (`laboratory` for lab results). Condition, ServiceRequest, MedicationRequest: the category the sender coded (its first coding). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                category?: components["parameters"]["FhirCategory"];
                /** @description AllergyIntolerance: `active`, `inactive`, `resolved`; Condition: `active`, `recurrence`, `relapse`, `inactive`, `remission`, `resolved`. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                "clinical-status"?: components["parameters"]["FhirClinicalStatus"];
                /** @description What the resource is about: the observed LOINC code, the allergen, the diagnosis, what was ordered, the medication. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                code?: components["parameters"]["FhirCode"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["FhirSearchForm"];
            };
        };
        responses: {
            /** @description A searchset Bundle of Condition resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            415: components["responses"]["FhirUnsupportedMediaType"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    readFhirCondition: {
        parameters: {
            query?: {
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
            };
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Condition. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirCondition"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirServiceRequest: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                subject?: components["parameters"]["FhirSubject"];
                /** @description Observation: `vital-signs` (http://terminology.hl7.org/CodeSystem/observation-category) for the vital signs, and the category the source gave (`laboratory` for lab results). Condition, ServiceRequest, MedicationRequest: the category the sender coded (its first coding). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                category?: components["parameters"]["FhirCategory"];
                /** @description What the resource is about: the observed LOINC code, the allergen, the diagnosis, what was ordered, the medication. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                code?: components["parameters"]["FhirCode"];
                /** @description The resource status (Coverage: `active`, `cancelled`, `draft`, `entered-in-error`; Observation: `final`, `amended`...; requests: their R4 status codes). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                status?: components["parameters"]["FhirStatus"];
                /** @description The request intent (`order`, `plan`, `proposal`...). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                intent?: components["parameters"]["FhirIntent"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A searchset Bundle of ServiceRequest resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirServiceRequestByPost: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                subject?: components["parameters"]["FhirSubject"];
                /** @description Observation: `vital-signs` (http://terminology.hl7.org/CodeSystem/observation-category) for the vital signs, and the category the source gave (`laboratory` for lab results). Condition, ServiceRequest, MedicationRequest: the category the sender coded (its first coding). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                category?: components["parameters"]["FhirCategory"];
                /** @description What the resource is about: the observed LOINC code, the allergen, the diagnosis, what was ordered, the medication. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                code?: components["parameters"]["FhirCode"];
                /** @description The resource status (Coverage: `active`, `cancelled`, `draft`, `entered-in-error`; Observation: `final`, `amended`...; requests: their R4 status codes). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                status?: components["parameters"]["FhirStatus"];
                /** @description The request intent (`order`, `plan`, `proposal`...). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                intent?: components["parameters"]["FhirIntent"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["FhirSearchForm"];
            };
        };
        responses: {
            /** @description A searchset Bundle of ServiceRequest resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            415: components["responses"]["FhirUnsupportedMediaType"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    readFhirServiceRequest: {
        parameters: {
            query?: {
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
            };
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ServiceRequest. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirServiceRequest"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirDiagnosticReport: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                subject?: components["parameters"]["FhirSubject"];
                /** @description Observation: `vital-signs` (http://terminology.hl7.org/CodeSystem/observation-category) for the vital signs, and the category the source gave (`laboratory` for lab results). Condition, ServiceRequest, MedicationRequest: the category the sender coded (its first coding). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                category?: components["parameters"]["FhirCategory"];
                /** @description What the resource is about: the observed LOINC code, the allergen, the diagnosis, what was ordered, the medication. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                code?: components["parameters"]["FhirCode"];
                /** @description The resource status (Coverage: `active`, `cancelled`, `draft`, `entered-in-error`; Observation: `final`, `amended`...; requests: their R4 status codes). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                status?: components["parameters"]["FhirStatus"];
                /** @description When the observation was made (effectiveDateTime). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range. */
                date?: components["parameters"]["FhirDate"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A searchset Bundle of DiagnosticReport resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirDiagnosticReportByPost: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                subject?: components["parameters"]["FhirSubject"];
                /** @description Observation: `vital-signs` (http://terminology.hl7.org/CodeSystem/observation-category) for the vital signs, and the category the source gave (`laboratory` for lab results). Condition, ServiceRequest, MedicationRequest: the category the sender coded (its first coding). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                category?: components["parameters"]["FhirCategory"];
                /** @description What the resource is about: the observed LOINC code, the allergen, the diagnosis, what was ordered, the medication. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                code?: components["parameters"]["FhirCode"];
                /** @description The resource status (Coverage: `active`, `cancelled`, `draft`, `entered-in-error`; Observation: `final`, `amended`...; requests: their R4 status codes). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                status?: components["parameters"]["FhirStatus"];
                /** @description When the observation was made (effectiveDateTime). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range. */
                date?: components["parameters"]["FhirDate"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["FhirSearchForm"];
            };
        };
        responses: {
            /** @description A searchset Bundle of DiagnosticReport resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            415: components["responses"]["FhirUnsupportedMediaType"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    readFhirDiagnosticReport: {
        parameters: {
            query?: {
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
            };
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The DiagnosticReport. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirDiagnosticReport"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirMedicationRequest: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                subject?: components["parameters"]["FhirSubject"];
                /** @description Observation: `vital-signs` (http://terminology.hl7.org/CodeSystem/observation-category) for the vital signs, and the category the source gave (`laboratory` for lab results). Condition, ServiceRequest, MedicationRequest: the category the sender coded (its first coding). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                category?: components["parameters"]["FhirCategory"];
                /** @description What the resource is about: the observed LOINC code, the allergen, the diagnosis, what was ordered, the medication. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                code?: components["parameters"]["FhirCode"];
                /** @description The resource status (Coverage: `active`, `cancelled`, `draft`, `entered-in-error`; Observation: `final`, `amended`...; requests: their R4 status codes). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                status?: components["parameters"]["FhirStatus"];
                /** @description The request intent (`order`, `plan`, `proposal`...). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                intent?: components["parameters"]["FhirIntent"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A searchset Bundle of MedicationRequest resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirMedicationRequestByPost: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                subject?: components["parameters"]["FhirSubject"];
                /** @description Observation: `vital-signs` (http://terminology.hl7.org/CodeSystem/observation-category) for the vital signs, and the category the source gave (`laboratory` for lab results). Condition, ServiceRequest, MedicationRequest: the category the sender coded (its first coding). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                category?: components["parameters"]["FhirCategory"];
                /** @description What the resource is about: the observed LOINC code, the allergen, the diagnosis, what was ordered, the medication. A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                code?: components["parameters"]["FhirCode"];
                /** @description The resource status (Coverage: `active`, `cancelled`, `draft`, `entered-in-error`; Observation: `final`, `amended`...; requests: their R4 status codes). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                status?: components["parameters"]["FhirStatus"];
                /** @description The request intent (`order`, `plan`, `proposal`...). A token: `code`, `system|code`, `system|` (any code of that system) or `|code`; several separated by commas match any; given twice, both must match. */
                intent?: components["parameters"]["FhirIntent"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["FhirSearchForm"];
            };
        };
        responses: {
            /** @description A searchset Bundle of MedicationRequest resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            415: components["responses"]["FhirUnsupportedMediaType"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    readFhirMedicationRequest: {
        parameters: {
            query?: {
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
            };
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The MedicationRequest. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirMedicationRequest"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirCoverageEligibilityResponse: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A searchset Bundle of CoverageEligibilityResponse resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    searchFhirCoverageEligibilityResponseByPost: {
        parameters: {
            query?: {
                /** @description Resources per page. `0` asks for the total alone, as `_summary=count` does (FHIR R4). */
                _count?: components["parameters"]["FhirCount"];
                /** @description One logical id, or several separated by commas (at most 200). */
                _id?: components["parameters"]["FhirIdSearch"];
                /**
                 * @description When the resource last changed (`meta.lastUpdated`). A date or instant (`1941`, `1941-03`, `1941-03-17`, `2026-11-20T10:00:00Z`; without a zone, UTC) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`, compared at the precision given; give it twice for a range.
                 *     Without `_sort` the results are then in (lastUpdated, id) order: incremental sync.
                 * @example [
                 *       "gt2026-11-20T10:00:00Z"
                 *     ]
                 */
                _lastUpdated?: components["parameters"]["FhirLastUpdated"];
                /** @description Set by the server in the `next` link; follow the link as it is. */
                _cursor?: components["parameters"]["FhirCursor"];
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
                /** @description The resident, as `Patient/<id>` or `<id>`; several separated by commas match any (`:Patient` may follow the name). An id that is not one of ofctx's (UUIDs) matches nothing. */
                patient?: components["parameters"]["FhirPatient"];
                /** @description The order: `_lastUpdated` (every type), `birthdate` (Patient), `date` (Observation); `-` before it for descending. Ties are in insertion order (reversed with `-`). Another key is ignored (or `400` with `Prefer: handling=strict`). */
                _sort?: components["parameters"]["FhirSort"];
                /** @description `count`: the Bundle carries `total` and the `self` link only, no entries. Other values are ignored (or `400` with `Prefer: handling=strict`). */
                _summary?: components["parameters"]["FhirSummary"];
                /** @description The resident of each match, as an entry with `search.mode` `include`: `Observation:patient`, `Coverage:beneficiary`, `AllergyIntolerance:patient` (any of the type's resident parameters, optionally with `:Patient`); needs `residents.read` too (`403` without it). `DiagnosticReport:result` (optionally `:Observation`): the report's Observations. */
                _include?: components["parameters"]["FhirInclude"];
                /** @description Any other query parameter: modifiers of the parameters above (`name:exact`, `family:contains`, `subject:Patient`), and parameters this server does not support, which are ignored unless `Prefer: handling=strict`. */
                parameters?: components["parameters"]["FhirOtherParameters"];
            };
            header?: {
                /** @description `handling=strict`: a parameter, modifier, `_sort` key, `_summary` value or `_include` this server does not support is `400` (an OperationOutcome naming it). Otherwise (`handling=lenient`, the default) it is ignored and left out of the `self` link (FHIR R4 3.1.1.2). */
                Prefer?: components["parameters"]["FhirPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["FhirSearchForm"];
            };
        };
        responses: {
            /** @description A searchset Bundle of CoverageEligibilityResponse resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSearchset"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            415: components["responses"]["FhirUnsupportedMediaType"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    readFhirCoverageEligibilityResponse: {
        parameters: {
            query?: {
                /** @description FHIR's format override; only JSON is served, so it may only name JSON. */
                _format?: components["parameters"]["FhirFormat"];
            };
            header?: {
                /**
                 * @description An ETag received earlier (`W/"<versionId>"` for a read). When it still matches, the answer is `304` with no body.
                 * @example W/"3"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The resource's logical id. ofctx gives UUIDs; any other FHIR id (1 to 64 letters, digits, `-` and `.`) names no resource here, `404` as an unknown UUID does. */
                id: components["parameters"]["FhirId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CoverageEligibilityResponse. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirCoverageEligibilityResponse"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    kickOffFhirExport: {
        parameters: {
            query?: {
                /** @description Comma-separated types among Patient, Coverage, Observation, AllergyIntolerance, CoverageEligibilityResponse, DiagnosticReport (default every one the token may read); each needs its read scope with search (`403` otherwise). */
                _type?: components["parameters"]["ExportType"];
                /** @description A FHIR instant (with a zone); only resources changed after it are exported. */
                _since?: components["parameters"]["ExportSince"];
                _outputFormat?: components["parameters"]["ExportOutputFormat"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                _elements?: components["parameters"]["ExportElements"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                _typeFilter?: components["parameters"]["ExportTypeFilter"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                patient?: components["parameters"]["ExportPatient"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                includeAssociatedData?: components["parameters"]["ExportIncludeAssociatedData"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                organizeOutputBy?: components["parameters"]["ExportOrganizeOutputBy"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                allowPartialManifests?: components["parameters"]["ExportAllowPartialManifests"];
            };
            header?: {
                /** @description `respond-async` (required), and `handling=lenient` to have unsupported parameters ignored (reported in the manifest's `error`) instead of refused (`400`, the default, `handling=strict`). */
                Prefer?: components["parameters"]["ExportPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: components["responses"]["FhirExportAccepted"];
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirExportLimit"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
            503: components["responses"]["FhirUnavailable"];
        };
    };
    kickOffFhirExportByPost: {
        parameters: {
            query?: {
                /** @description Comma-separated types among Patient, Coverage, Observation, AllergyIntolerance, CoverageEligibilityResponse, DiagnosticReport (default every one the token may read); each needs its read scope with search (`403` otherwise). */
                _type?: components["parameters"]["ExportType"];
                /** @description A FHIR instant (with a zone); only resources changed after it are exported. */
                _since?: components["parameters"]["ExportSince"];
                _outputFormat?: components["parameters"]["ExportOutputFormat"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                _elements?: components["parameters"]["ExportElements"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                _typeFilter?: components["parameters"]["ExportTypeFilter"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                patient?: components["parameters"]["ExportPatient"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                includeAssociatedData?: components["parameters"]["ExportIncludeAssociatedData"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                organizeOutputBy?: components["parameters"]["ExportOrganizeOutputBy"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                allowPartialManifests?: components["parameters"]["ExportAllowPartialManifests"];
            };
            header?: {
                /** @description `respond-async` (required), and `handling=lenient` to have unsupported parameters ignored (reported in the manifest's `error`) instead of refused (`400`, the default, `handling=strict`). */
                Prefer?: components["parameters"]["ExportPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/fhir+json": components["schemas"]["FhirParameters"];
                "application/json": components["schemas"]["FhirParameters"];
            };
        };
        responses: {
            202: components["responses"]["FhirExportAccepted"];
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            415: components["responses"]["FhirUnsupportedMediaType"];
            429: components["responses"]["FhirExportLimit"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
            503: components["responses"]["FhirUnavailable"];
        };
    };
    kickOffFhirPatientExport: {
        parameters: {
            query?: {
                /** @description Comma-separated types among Patient, Coverage, Observation, AllergyIntolerance, CoverageEligibilityResponse, DiagnosticReport (default every one the token may read); each needs its read scope with search (`403` otherwise). */
                _type?: components["parameters"]["ExportType"];
                /** @description A FHIR instant (with a zone); only resources changed after it are exported. */
                _since?: components["parameters"]["ExportSince"];
                _outputFormat?: components["parameters"]["ExportOutputFormat"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                _elements?: components["parameters"]["ExportElements"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                _typeFilter?: components["parameters"]["ExportTypeFilter"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                patient?: components["parameters"]["ExportPatient"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                includeAssociatedData?: components["parameters"]["ExportIncludeAssociatedData"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                organizeOutputBy?: components["parameters"]["ExportOrganizeOutputBy"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                allowPartialManifests?: components["parameters"]["ExportAllowPartialManifests"];
            };
            header?: {
                /** @description `respond-async` (required), and `handling=lenient` to have unsupported parameters ignored (reported in the manifest's `error`) instead of refused (`400`, the default, `handling=strict`). */
                Prefer?: components["parameters"]["ExportPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: components["responses"]["FhirExportAccepted"];
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirExportLimit"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
            503: components["responses"]["FhirUnavailable"];
        };
    };
    kickOffFhirPatientExportByPost: {
        parameters: {
            query?: {
                /** @description Comma-separated types among Patient, Coverage, Observation, AllergyIntolerance, CoverageEligibilityResponse, DiagnosticReport (default every one the token may read); each needs its read scope with search (`403` otherwise). */
                _type?: components["parameters"]["ExportType"];
                /** @description A FHIR instant (with a zone); only resources changed after it are exported. */
                _since?: components["parameters"]["ExportSince"];
                _outputFormat?: components["parameters"]["ExportOutputFormat"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                _elements?: components["parameters"]["ExportElements"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                _typeFilter?: components["parameters"]["ExportTypeFilter"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                patient?: components["parameters"]["ExportPatient"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                includeAssociatedData?: components["parameters"]["ExportIncludeAssociatedData"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                organizeOutputBy?: components["parameters"]["ExportOrganizeOutputBy"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                allowPartialManifests?: components["parameters"]["ExportAllowPartialManifests"];
            };
            header?: {
                /** @description `respond-async` (required), and `handling=lenient` to have unsupported parameters ignored (reported in the manifest's `error`) instead of refused (`400`, the default, `handling=strict`). */
                Prefer?: components["parameters"]["ExportPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/fhir+json": components["schemas"]["FhirParameters"];
                "application/json": components["schemas"]["FhirParameters"];
            };
        };
        responses: {
            202: components["responses"]["FhirExportAccepted"];
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            415: components["responses"]["FhirUnsupportedMediaType"];
            429: components["responses"]["FhirExportLimit"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
            503: components["responses"]["FhirUnavailable"];
        };
    };
    kickOffFhirGroupExport: {
        parameters: {
            query?: {
                /** @description Comma-separated types among Patient, Coverage, Observation, AllergyIntolerance, CoverageEligibilityResponse, DiagnosticReport (default every one the token may read); each needs its read scope with search (`403` otherwise). */
                _type?: components["parameters"]["ExportType"];
                /** @description A FHIR instant (with a zone); only resources changed after it are exported. */
                _since?: components["parameters"]["ExportSince"];
                _outputFormat?: components["parameters"]["ExportOutputFormat"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                _elements?: components["parameters"]["ExportElements"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                _typeFilter?: components["parameters"]["ExportTypeFilter"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                patient?: components["parameters"]["ExportPatient"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                includeAssociatedData?: components["parameters"]["ExportIncludeAssociatedData"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                organizeOutputBy?: components["parameters"]["ExportOrganizeOutputBy"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                allowPartialManifests?: components["parameters"]["ExportAllowPartialManifests"];
            };
            header?: {
                /** @description `respond-async` (required), and `handling=lenient` to have unsupported parameters ignored (reported in the manifest's `error`) instead of refused (`400`, the default, `handling=strict`). */
                Prefer?: components["parameters"]["ExportPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The facility's id (the facility is the one Group of its R4 base); any other id is `404`. */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: components["responses"]["FhirExportAccepted"];
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirExportLimit"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
            503: components["responses"]["FhirUnavailable"];
        };
    };
    kickOffFhirGroupExportByPost: {
        parameters: {
            query?: {
                /** @description Comma-separated types among Patient, Coverage, Observation, AllergyIntolerance, CoverageEligibilityResponse, DiagnosticReport (default every one the token may read); each needs its read scope with search (`403` otherwise). */
                _type?: components["parameters"]["ExportType"];
                /** @description A FHIR instant (with a zone); only resources changed after it are exported. */
                _since?: components["parameters"]["ExportSince"];
                _outputFormat?: components["parameters"]["ExportOutputFormat"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                _elements?: components["parameters"]["ExportElements"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                _typeFilter?: components["parameters"]["ExportTypeFilter"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                patient?: components["parameters"]["ExportPatient"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                includeAssociatedData?: components["parameters"]["ExportIncludeAssociatedData"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                organizeOutputBy?: components["parameters"]["ExportOrganizeOutputBy"];
                /** @description Not supported; refused (`400`), or ignored under `Prefer: handling=lenient`. */
                allowPartialManifests?: components["parameters"]["ExportAllowPartialManifests"];
            };
            header?: {
                /** @description `respond-async` (required), and `handling=lenient` to have unsupported parameters ignored (reported in the manifest's `error`) instead of refused (`400`, the default, `handling=strict`). */
                Prefer?: components["parameters"]["ExportPrefer"];
            };
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The facility's id (the facility is the one Group of its R4 base); any other id is `404`. */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/fhir+json": components["schemas"]["FhirParameters"];
                "application/json": components["schemas"]["FhirParameters"];
            };
        };
        responses: {
            202: components["responses"]["FhirExportAccepted"];
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            415: components["responses"]["FhirUnsupportedMediaType"];
            429: components["responses"]["FhirExportLimit"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
            503: components["responses"]["FhirUnavailable"];
        };
    };
    readFhirExportStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The export, as its status URL names it. */
                job_id: components["parameters"]["ExportJobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export is complete; its manifest. */
            200: {
                headers: {
                    /** @description When its files are removed (`BULK_EXPORT_TTL_HOURS` after it completed). */
                    Expires?: string;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "transactionTime": "2026-11-24T10:00:00.000Z",
                     *       "request": "https://api.ofctx.example/api/v1/fhir/R4/6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60/0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21/$export?_type=Patient,Observation",
                     *       "requiresAccessToken": true,
                     *       "output": [
                     *         {
                     *           "type": "Patient",
                     *           "url": "https://api.ofctx.example/api/v1/fhir/R4/6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60/0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21/bulk-files/5e6f7081-92a3-4b45-8d6e-7f8091a2b3c4/Patient.ndjson",
                     *           "count": 321
                     *         },
                     *         {
                     *           "type": "Observation",
                     *           "url": "https://api.ofctx.example/api/v1/fhir/R4/6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60/0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21/bulk-files/5e6f7081-92a3-4b45-8d6e-7f8091a2b3c4/Observation.ndjson",
                     *           "count": 12840
                     *         }
                     *       ],
                     *       "error": []
                     *     }
                     */
                    "application/json": components["schemas"]["BulkExportManifest"];
                };
            };
            /** @description Still running; poll again after `Retry-After` seconds. */
            202: {
                headers: {
                    /** @description The type being written and how many of it so far. */
                    "X-Progress"?: string;
                    /** @description Seconds to wait before polling again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    cancelFhirExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The export, as its status URL names it. */
                job_id: components["parameters"]["ExportJobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancelled; the job and its files are removed. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "resourceType": "OperationOutcome",
                     *       "issue": [
                     *         {
                     *           "severity": "information",
                     *           "code": "informational",
                     *           "diagnostics": "The export was cancelled and its files removed."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/fhir+json": components["schemas"]["OperationOutcome"];
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    readFhirExportFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
                /** @description The export, as its status URL names it. */
                job_id: components["parameters"]["ExportJobId"];
                /** @description A file of the manifest, such as `Patient.ndjson`. */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The NDJSON file. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /** @example {"resourceType":"Patient","id":"9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a","meta":{"versionId":"1","lastUpdated":"2026-01-31T08:15:00.000Z"},"active":true,"gender":"female","birthDate":"1941-03-17"} */
                    "application/fhir+ndjson": string;
                };
            };
            400: components["responses"]["FhirBadRequest"];
            401: components["responses"]["FhirUnauthorized"];
            403: components["responses"]["FhirForbidden"];
            404: components["responses"]["FhirNotFound"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["FhirInternalError"];
        };
    };
    ingestFhir: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/fhir+json": components["schemas"]["IngestBundle"];
                "application/fhir+ndjson": string;
            };
        };
        responses: {
            /** @description The Bundle was applied (a batch: entry by entry, see each `response.status`), or the NDJSON stream was read to its end. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "resourceType": "Bundle",
                     *       "type": "transaction-response",
                     *       "entry": [
                     *         {
                     *           "response": {
                     *             "status": "201 Created",
                     *             "location": "Patient/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a",
                     *             "etag": "W/\"1\"",
                     *             "lastModified": "2026-01-31T08:15:00.000Z"
                     *           }
                     *         },
                     *         {
                     *           "response": {
                     *             "status": "200 OK",
                     *             "location": "Coverage/3f2e1d0c-9b8a-4c7d-8e6f-5a4b3c2d1e0f",
                     *             "etag": "W/\"2\"",
                     *             "lastModified": "2026-01-31T08:15:00.000Z"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/fhir+json": components["schemas"]["IngestResponseBundle"];
                    /**
                     * @example {
                     *       "created": 1200,
                     *       "updated": 3,
                     *       "unchanged": 0,
                     *       "rejected": [
                     *         {
                     *           "line": 17,
                     *           "code": "value",
                     *           "issue": "Patient.birthDate must be a full date YYYY-MM-DD; got \"1941\"",
                     *           "expression": [
                     *             "Patient.birthDate"
                     *           ]
                     *         }
                     *       ],
                     *       "rejected_count": 1,
                     *       "events": 402
                     *     }
                     */
                    "application/json": components["schemas"]["IngestSummary"];
                };
            };
            400: components["responses"]["IngestFailure"];
            401: components["responses"]["IngestFailure"];
            403: components["responses"]["IngestFailure"];
            412: components["responses"]["IngestFailure"];
            413: components["responses"]["IngestFailure"];
            415: components["responses"]["IngestFailure"];
            422: components["responses"]["IngestFailure"];
            429: components["responses"]["FhirQuotaExceeded"];
            431: components["responses"]["FhirHeadersTooLarge"];
            500: components["responses"]["IngestFailure"];
            503: components["responses"]["IngestFailure"];
        };
    };
    ingestX12: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /**
                 * @description The facility id. Must be one of the facilities granted to the credential.
                 * @example 0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21
                 */
                facility_id: components["parameters"]["FacilityId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/edi-x12": string;
            };
        };
        responses: {
            /** @description The interchange was read; each loop is counted or listed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "matched": 2,
                     *         "updated": 1,
                     *         "unchanged": 1,
                     *         "unmatched": [
                     *           {
                     *             "at": "2000D loop HL*7",
                     *             "trace": "X-1",
                     *             "member_id": null,
                     *             "issue": "no Coverage of this facility has the id or source identifier TRN02 \"X-1\""
                     *           }
                     *         ],
                     *         "rejected": [
                     *           {
                     *             "at": "2000C loop HL*5",
                     *             "trace": "6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60",
                     *             "member_id": "3ZZ4TE5MK75",
                     *             "issue": "AAA 72: Invalid/missing subscriber/insured ID"
                     *           }
                     *         ],
                     *         "conflicts": [],
                     *         "events": 1,
                     *         "responses": 3
                     *       },
                     *       "meta": null,
                     *       "error": null
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["EligibilitySummary"];
                        meta: null;
                        error: null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description 1-based page number. A page past the last answers an empty `data`. */
                page?: components["parameters"]["Page"];
                /** @description Rows per page. */
                page_size?: components["parameters"]["PageSize"];
            };
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of subscriptions. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "2f1e0d9c-8b7a-4f6e-9d5c-4b3a2f1e0d9c",
                     *           "callback_url": "https://partner.example/hooks/ofctx",
                     *           "event_types": [
                     *             "resident.admitted",
                     *             "coverage.updated"
                     *           ],
                     *           "description": "Eligibility sync",
                     *           "signature_header": "X-Service-Signature",
                     *           "status": "active",
                     *           "created_at": "2026-11-22T10:00:00.000Z",
                     *           "revoked_at": null,
                     *           "disabled_reason": null,
                     *           "failing_since": null
                     *         }
                     *       ],
                     *       "meta": {
                     *         "page": {
                     *           "page": 1,
                     *           "page_size": 50,
                     *           "total": 1
                     *         }
                     *       },
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSubscriptionList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    registerWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "callback_url": "https://partner.example/hooks/ofctx",
                 *       "event_types": [
                 *         "resident.admitted",
                 *         "coverage.updated"
                 *       ],
                 *       "description": "Eligibility sync"
                 *     }
                 */
                "application/json": components["schemas"]["WebhookRegistration"];
            };
        };
        responses: {
            /** @description The created subscription, with its signing secret (shown only here). */
            201: {
                headers: {
                    /** @description Path of the organization's subscription list. */
                    Location?: string;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "2f1e0d9c-8b7a-4f6e-9d5c-4b3a2f1e0d9c",
                     *         "callback_url": "https://partner.example/hooks/ofctx",
                     *         "event_types": [
                     *           "resident.admitted",
                     *           "coverage.updated"
                     *         ],
                     *         "description": "Eligibility sync",
                     *         "signature_header": "X-Service-Signature",
                     *         "status": "active",
                     *         "created_at": "2026-11-22T10:00:00.000Z",
                     *         "revoked_at": null,
                     *         "disabled_reason": null,
                     *         "failing_since": null,
                     *         "signing_secret": "ofx_whs_ZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXp7fH1-f4CBgoM",
                     *         "standard_webhooks_secret": "whsec_b2Z4X3doc19aR1ZtWjJocGFtdHNiVzV2Y0hGeWMzUjFkbmQ0ZVhwN2ZIMS1mNENCZ29N"
                     *       },
                     *       "meta": null,
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSubscriptionCreatedRead"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listWebhookEventTypes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every current event type, on one page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "event_type": "resident.admitted",
                     *           "api_version": "v1",
                     *           "description": "A resident is admitted to a facility."
                     *         },
                     *         {
                     *           "event_type": "coverage.updated",
                     *           "api_version": "v1",
                     *           "description": "A resident's payer coverage changes."
                     *         }
                     *       ],
                     *       "meta": {
                     *         "page": {
                     *           "page": 1,
                     *           "page_size": 2,
                     *           "total": 2
                     *         }
                     *       },
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["EventTypeList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The subscription id. */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "2f1e0d9c-8b7a-4f6e-9d5c-4b3a2f1e0d9c",
                     *         "callback_url": "https://partner.example/hooks/ofctx",
                     *         "event_types": [
                     *           "resident.admitted",
                     *           "coverage.updated"
                     *         ],
                     *         "description": "Eligibility sync",
                     *         "signature_header": "X-Service-Signature",
                     *         "status": "disabled",
                     *         "created_at": "2026-11-22T10:00:00.000Z",
                     *         "revoked_at": "2026-11-27T10:00:00.000Z",
                     *         "disabled_reason": "failing",
                     *         "failing_since": "2026-11-22T10:00:00.000Z"
                     *       },
                     *       "meta": null,
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSubscriptionRead"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    revokeWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The subscription id. */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked subscription. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "2f1e0d9c-8b7a-4f6e-9d5c-4b3a2f1e0d9c",
                     *         "callback_url": "https://partner.example/hooks/ofctx",
                     *         "event_types": [
                     *           "resident.admitted",
                     *           "coverage.updated"
                     *         ],
                     *         "description": "Eligibility sync",
                     *         "signature_header": "X-Service-Signature",
                     *         "status": "revoked",
                     *         "created_at": "2026-11-22T10:00:00.000Z",
                     *         "revoked_at": "2026-11-22T11:00:00.000Z",
                     *         "disabled_reason": null,
                     *         "failing_since": null
                     *       },
                     *       "meta": null,
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSubscriptionRead"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The subscription id. */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event_type": "resident.admitted"
                 *     }
                 */
                "application/json": components["schemas"]["WebhookTestRequest"];
            };
        };
        responses: {
            /** @description The signed test delivery. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "body": "{\"api_version\":\"v1\",\"event_type\":\"resident.admitted\",\"event_id\":\"8a9b0c1d-2e3f-4a5b-8c7d-9e0f1a2b3c4d\",\"delivery_id\":\"4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e\",\"occurred_at\":\"2026-11-22T10:00:00.000Z\",\"data\":{\"org_id\":\"6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60\",\"facility_id\":\"0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21\",\"resident_id\":\"9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a\"}}",
                     *         "signature": "368841710cba1baf08a4b2eeaddf7e77b8eb89278a6004ce2dfce662c80e0cae",
                     *         "signature_header": "X-Service-Signature",
                     *         "headers": {
                     *           "Content-Type": "application/json",
                     *           "X-Service-Signature": "368841710cba1baf08a4b2eeaddf7e77b8eb89278a6004ce2dfce662c80e0cae",
                     *           "X-Service-Delivery-Id": "4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e",
                     *           "X-Service-Event-Type": "resident.admitted",
                     *           "X-Service-Attempt": "1",
                     *           "X-Service-Timestamp": "1795341600",
                     *           "webhook-id": "4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e",
                     *           "webhook-timestamp": "1795341600",
                     *           "webhook-signature": "v1,Oipmqo+91pjtZTdOtVmHLxKNkmbGP5rfKTIPRJOegGY="
                     *         }
                     *       },
                     *       "meta": null,
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookTestDeliveryRead"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The subscription id. */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret (shown only here) and the end of the overlap. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "2f1e0d9c-8b7a-4f6e-9d5c-4b3a2f1e0d9c",
                     *         "signing_secret": "ofx_whs_ZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXp7fH1-f4CBgoM",
                     *         "standard_webhooks_secret": "whsec_b2Z4X3doc19aR1ZtWjJocGFtdHNiVzV2Y0hGeWMzUjFkbmQ0ZVhwN2ZIMS1mNENCZ29N",
                     *         "rotated_at": "2026-11-22T10:00:00.000Z",
                     *         "previous_secret_expires_at": "2026-11-23T10:00:00.000Z"
                     *       },
                     *       "meta": null,
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSecretRotationRead"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    enableWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The subscription id. */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription, active. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "2f1e0d9c-8b7a-4f6e-9d5c-4b3a2f1e0d9c",
                     *         "callback_url": "https://partner.example/hooks/ofctx",
                     *         "event_types": [
                     *           "resident.admitted",
                     *           "coverage.updated"
                     *         ],
                     *         "description": "Eligibility sync",
                     *         "signature_header": "X-Service-Signature",
                     *         "status": "active",
                     *         "created_at": "2026-11-22T10:00:00.000Z",
                     *         "revoked_at": null,
                     *         "disabled_reason": null,
                     *         "failing_since": null
                     *       },
                     *       "meta": null,
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSubscriptionRead"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Only deliveries in this state. */
                status?: components["schemas"]["WebhookDeliveryStatus"];
                /** @description 1-based page number. A page past the last answers an empty `data`. */
                page?: components["parameters"]["Page"];
                /** @description Rows per page. */
                page_size?: components["parameters"]["PageSize"];
            };
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The subscription id. */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries, newest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "0193a6f0-4b5c-7d6e-8f9a-0b1c2d3e4f50",
                     *           "event_id": "0193a6f0-4b5b-7a1b-9c2d-3e4f5a6b7c8d",
                     *           "event_type": "resident.admitted",
                     *           "facility_id": "0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21",
                     *           "status": "failed",
                     *           "created_at": "2026-11-22T10:00:00.000Z",
                     *           "delivered_at": null,
                     *           "next_attempt_at": null,
                     *           "attempts": [
                     *             {
                     *               "at": "2026-11-22T10:00:00.012Z",
                     *               "status_code": 500,
                     *               "duration_ms": 41,
                     *               "error": "http_status"
                     *             },
                     *             {
                     *               "at": "2026-11-22T10:00:05.230Z",
                     *               "status_code": null,
                     *               "duration_ms": 15000,
                     *               "error": "timeout"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "meta": {
                     *         "page": {
                     *           "page": 1,
                     *           "page_size": 50,
                     *           "total": 1
                     *         }
                     *       },
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    redeliverWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The subscription id. */
                id: components["parameters"]["SubscriptionId"];
                /** @description The delivery id (`delivery_id` in its body, `X-Service-Delivery-Id`). */
                delivery_id: components["parameters"]["DeliveryIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, queued again. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "0193a6f0-4b5c-7d6e-8f9a-0b1c2d3e4f50",
                     *         "event_id": "0193a6f0-4b5b-7a1b-9c2d-3e4f5a6b7c8d",
                     *         "event_type": "resident.admitted",
                     *         "facility_id": "0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21",
                     *         "status": "pending",
                     *         "created_at": "2026-11-22T10:00:00.000Z",
                     *         "delivered_at": null,
                     *         "next_attempt_at": "2026-11-22T12:00:00.000Z",
                     *         "attempts": [
                     *           {
                     *             "at": "2026-11-22T10:00:00.012Z",
                     *             "status_code": 500,
                     *             "duration_ms": 41,
                     *             "error": "http_status"
                     *           }
                     *         ]
                     *       },
                     *       "meta": null,
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDeliveryRead"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    recoverWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The subscription id. */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "since": "2026-11-22T09:00:00Z"
                 *     }
                 */
                "application/json": components["schemas"]["WebhookRecoverRequest"];
            };
        };
        responses: {
            /** @description How many deliveries were queued again. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "queued": 12,
                     *         "since": "2026-11-22T09:00:00.000Z"
                     *       },
                     *       "meta": null,
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookRecoveryRead"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated event types, such as `resident.admitted,coverage.updated`.
                 * @example resident.admitted,coverage.updated
                 */
                types?: string;
                /** @description Only events of this facility (one granted to the credential). */
                facility_id?: string;
                /** @description An event id (of this organization, still kept); the page starts after it. */
                after?: string;
                /** @description Rows per page. */
                page_size?: components["parameters"]["PageSize"];
            };
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Events, oldest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "0193a6f0-4b5b-7a1b-9c2d-3e4f5a6b7c8d",
                     *           "type": "resident.admitted",
                     *           "api_version": "v1",
                     *           "created_at": "2026-11-22T10:00:00.000Z",
                     *           "occurred_at": "2026-11-22T10:00:00.000Z",
                     *           "facility_id": "0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21",
                     *           "data": {
                     *             "org_id": "6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60",
                     *             "facility_id": "0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21",
                     *             "resident_id": "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a"
                     *           }
                     *         }
                     *       ],
                     *       "meta": {
                     *         "page": {
                     *           "page_size": 50,
                     *           "next": null
                     *         }
                     *       },
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["EventList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization id. Must be the organization bound to the credential.
                 * @example 6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60
                 */
                org_id: components["parameters"]["OrgId"];
                /** @description The event id (`event_id` of its deliveries). */
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "0193a6f0-4b5b-7a1b-9c2d-3e4f5a6b7c8d",
                     *         "type": "resident.admitted",
                     *         "api_version": "v1",
                     *         "created_at": "2026-11-22T10:00:00.000Z",
                     *         "occurred_at": "2026-11-22T10:00:00.000Z",
                     *         "facility_id": "0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21",
                     *         "data": {
                     *           "org_id": "6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60",
                     *           "facility_id": "0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21",
                     *           "resident_id": "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a"
                     *         }
                     *       },
                     *       "meta": null,
                     *       "error": null
                     *     }
                     */
                    "application/json": components["schemas"]["EventRead"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["QuotaExceeded"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    deliverResidentAdmitted: {
        parameters: {
            query?: never;
            header: {
                /** @description Lowercase hex HMAC-SHA256 of the exact raw body bytes, keyed with the UTF-8 bytes of the subscription's signing secret. Compare in constant time. During a secret rotation's overlap it is keyed with the previous secret until `previous_secret_expires_at` (see `rotateWebhookSecret`). */
                "X-Service-Signature": components["parameters"]["DeliverySignature"];
                /** @description Id of this delivery (one event to one subscription). The same on every retry; equal to `delivery_id` in the body. De-duplicate on it. */
                "X-Service-Delivery-Id": components["parameters"]["DeliveryId"];
                /** @description The event type, equal to `event_type` in the body. */
                "X-Service-Event-Type": components["parameters"]["DeliveryEventType"];
                /** @description 1 for the first attempt, 2 for the first retry, and so on. */
                "X-Service-Attempt": components["parameters"]["DeliveryAttempt"];
                /** @description Unix time in seconds at which this attempt was sent. Not covered by the signature (the body is signed, and the body is the same on every retry); use it to drop stale attempts, and de-duplicate on the delivery id. */
                "X-Service-Timestamp": components["parameters"]["DeliveryTimestamp"];
                /** @description Standard Webhooks message id. The delivery id (equal to `X-Service-Delivery-Id`), the same on every retry. */
                "webhook-id": components["parameters"]["StandardWebhookId"];
                /** @description Standard Webhooks timestamp, Unix seconds of this attempt (equal to `X-Service-Timestamp`). Signed by `webhook-signature`; reject attempts more than 5 minutes from your clock. */
                "webhook-timestamp": components["parameters"]["StandardWebhookTimestamp"];
                /**
                 * @description Standard Webhooks signatures, space-separated: `v1,` + base64 HMAC-SHA256 of
                 *     `webhook-id.webhook-timestamp.body`, keyed with the same key as
                 *     `X-Service-Signature` (`standard_webhooks_secret` is that key as `whsec_` + base64).
                 *     One entry normally; two during a secret rotation's overlap (new secret first).
                 */
                "webhook-signature": components["parameters"]["StandardWebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["ResidentEventDelivery"];
        responses: {
            200: components["responses"]["DeliveryAccepted"];
            410: components["responses"]["DeliveryGone"];
        };
    };
    deliverResidentDischarged: {
        parameters: {
            query?: never;
            header: {
                /** @description Lowercase hex HMAC-SHA256 of the exact raw body bytes, keyed with the UTF-8 bytes of the subscription's signing secret. Compare in constant time. During a secret rotation's overlap it is keyed with the previous secret until `previous_secret_expires_at` (see `rotateWebhookSecret`). */
                "X-Service-Signature": components["parameters"]["DeliverySignature"];
                /** @description Id of this delivery (one event to one subscription). The same on every retry; equal to `delivery_id` in the body. De-duplicate on it. */
                "X-Service-Delivery-Id": components["parameters"]["DeliveryId"];
                /** @description The event type, equal to `event_type` in the body. */
                "X-Service-Event-Type": components["parameters"]["DeliveryEventType"];
                /** @description 1 for the first attempt, 2 for the first retry, and so on. */
                "X-Service-Attempt": components["parameters"]["DeliveryAttempt"];
                /** @description Unix time in seconds at which this attempt was sent. Not covered by the signature (the body is signed, and the body is the same on every retry); use it to drop stale attempts, and de-duplicate on the delivery id. */
                "X-Service-Timestamp": components["parameters"]["DeliveryTimestamp"];
                /** @description Standard Webhooks message id. The delivery id (equal to `X-Service-Delivery-Id`), the same on every retry. */
                "webhook-id": components["parameters"]["StandardWebhookId"];
                /** @description Standard Webhooks timestamp, Unix seconds of this attempt (equal to `X-Service-Timestamp`). Signed by `webhook-signature`; reject attempts more than 5 minutes from your clock. */
                "webhook-timestamp": components["parameters"]["StandardWebhookTimestamp"];
                /**
                 * @description Standard Webhooks signatures, space-separated: `v1,` + base64 HMAC-SHA256 of
                 *     `webhook-id.webhook-timestamp.body`, keyed with the same key as
                 *     `X-Service-Signature` (`standard_webhooks_secret` is that key as `whsec_` + base64).
                 *     One entry normally; two during a secret rotation's overlap (new secret first).
                 */
                "webhook-signature": components["parameters"]["StandardWebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["ResidentEventDelivery"];
        responses: {
            200: components["responses"]["DeliveryAccepted"];
            410: components["responses"]["DeliveryGone"];
        };
    };
    deliverResidentTransferred: {
        parameters: {
            query?: never;
            header: {
                /** @description Lowercase hex HMAC-SHA256 of the exact raw body bytes, keyed with the UTF-8 bytes of the subscription's signing secret. Compare in constant time. During a secret rotation's overlap it is keyed with the previous secret until `previous_secret_expires_at` (see `rotateWebhookSecret`). */
                "X-Service-Signature": components["parameters"]["DeliverySignature"];
                /** @description Id of this delivery (one event to one subscription). The same on every retry; equal to `delivery_id` in the body. De-duplicate on it. */
                "X-Service-Delivery-Id": components["parameters"]["DeliveryId"];
                /** @description The event type, equal to `event_type` in the body. */
                "X-Service-Event-Type": components["parameters"]["DeliveryEventType"];
                /** @description 1 for the first attempt, 2 for the first retry, and so on. */
                "X-Service-Attempt": components["parameters"]["DeliveryAttempt"];
                /** @description Unix time in seconds at which this attempt was sent. Not covered by the signature (the body is signed, and the body is the same on every retry); use it to drop stale attempts, and de-duplicate on the delivery id. */
                "X-Service-Timestamp": components["parameters"]["DeliveryTimestamp"];
                /** @description Standard Webhooks message id. The delivery id (equal to `X-Service-Delivery-Id`), the same on every retry. */
                "webhook-id": components["parameters"]["StandardWebhookId"];
                /** @description Standard Webhooks timestamp, Unix seconds of this attempt (equal to `X-Service-Timestamp`). Signed by `webhook-signature`; reject attempts more than 5 minutes from your clock. */
                "webhook-timestamp": components["parameters"]["StandardWebhookTimestamp"];
                /**
                 * @description Standard Webhooks signatures, space-separated: `v1,` + base64 HMAC-SHA256 of
                 *     `webhook-id.webhook-timestamp.body`, keyed with the same key as
                 *     `X-Service-Signature` (`standard_webhooks_secret` is that key as `whsec_` + base64).
                 *     One entry normally; two during a secret rotation's overlap (new secret first).
                 */
                "webhook-signature": components["parameters"]["StandardWebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["ResidentEventDelivery"];
        responses: {
            200: components["responses"]["DeliveryAccepted"];
            410: components["responses"]["DeliveryGone"];
        };
    };
    deliverResidentMerged: {
        parameters: {
            query?: never;
            header: {
                /** @description Lowercase hex HMAC-SHA256 of the exact raw body bytes, keyed with the UTF-8 bytes of the subscription's signing secret. Compare in constant time. During a secret rotation's overlap it is keyed with the previous secret until `previous_secret_expires_at` (see `rotateWebhookSecret`). */
                "X-Service-Signature": components["parameters"]["DeliverySignature"];
                /** @description Id of this delivery (one event to one subscription). The same on every retry; equal to `delivery_id` in the body. De-duplicate on it. */
                "X-Service-Delivery-Id": components["parameters"]["DeliveryId"];
                /** @description The event type, equal to `event_type` in the body. */
                "X-Service-Event-Type": components["parameters"]["DeliveryEventType"];
                /** @description 1 for the first attempt, 2 for the first retry, and so on. */
                "X-Service-Attempt": components["parameters"]["DeliveryAttempt"];
                /** @description Unix time in seconds at which this attempt was sent. Not covered by the signature (the body is signed, and the body is the same on every retry); use it to drop stale attempts, and de-duplicate on the delivery id. */
                "X-Service-Timestamp": components["parameters"]["DeliveryTimestamp"];
                /** @description Standard Webhooks message id. The delivery id (equal to `X-Service-Delivery-Id`), the same on every retry. */
                "webhook-id": components["parameters"]["StandardWebhookId"];
                /** @description Standard Webhooks timestamp, Unix seconds of this attempt (equal to `X-Service-Timestamp`). Signed by `webhook-signature`; reject attempts more than 5 minutes from your clock. */
                "webhook-timestamp": components["parameters"]["StandardWebhookTimestamp"];
                /**
                 * @description Standard Webhooks signatures, space-separated: `v1,` + base64 HMAC-SHA256 of
                 *     `webhook-id.webhook-timestamp.body`, keyed with the same key as
                 *     `X-Service-Signature` (`standard_webhooks_secret` is that key as `whsec_` + base64).
                 *     One entry normally; two during a secret rotation's overlap (new secret first).
                 */
                "webhook-signature": components["parameters"]["StandardWebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["ResidentEventDelivery"];
        responses: {
            200: components["responses"]["DeliveryAccepted"];
            410: components["responses"]["DeliveryGone"];
        };
    };
    deliverCoverageUpdated: {
        parameters: {
            query?: never;
            header: {
                /** @description Lowercase hex HMAC-SHA256 of the exact raw body bytes, keyed with the UTF-8 bytes of the subscription's signing secret. Compare in constant time. During a secret rotation's overlap it is keyed with the previous secret until `previous_secret_expires_at` (see `rotateWebhookSecret`). */
                "X-Service-Signature": components["parameters"]["DeliverySignature"];
                /** @description Id of this delivery (one event to one subscription). The same on every retry; equal to `delivery_id` in the body. De-duplicate on it. */
                "X-Service-Delivery-Id": components["parameters"]["DeliveryId"];
                /** @description The event type, equal to `event_type` in the body. */
                "X-Service-Event-Type": components["parameters"]["DeliveryEventType"];
                /** @description 1 for the first attempt, 2 for the first retry, and so on. */
                "X-Service-Attempt": components["parameters"]["DeliveryAttempt"];
                /** @description Unix time in seconds at which this attempt was sent. Not covered by the signature (the body is signed, and the body is the same on every retry); use it to drop stale attempts, and de-duplicate on the delivery id. */
                "X-Service-Timestamp": components["parameters"]["DeliveryTimestamp"];
                /** @description Standard Webhooks message id. The delivery id (equal to `X-Service-Delivery-Id`), the same on every retry. */
                "webhook-id": components["parameters"]["StandardWebhookId"];
                /** @description Standard Webhooks timestamp, Unix seconds of this attempt (equal to `X-Service-Timestamp`). Signed by `webhook-signature`; reject attempts more than 5 minutes from your clock. */
                "webhook-timestamp": components["parameters"]["StandardWebhookTimestamp"];
                /**
                 * @description Standard Webhooks signatures, space-separated: `v1,` + base64 HMAC-SHA256 of
                 *     `webhook-id.webhook-timestamp.body`, keyed with the same key as
                 *     `X-Service-Signature` (`standard_webhooks_secret` is that key as `whsec_` + base64).
                 *     One entry normally; two during a secret rotation's overlap (new secret first).
                 */
                "webhook-signature": components["parameters"]["StandardWebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["ResidentEventDelivery"];
        responses: {
            200: components["responses"]["DeliveryAccepted"];
            410: components["responses"]["DeliveryGone"];
        };
    };
    deliverClinicalConditionCreated: {
        parameters: {
            query?: never;
            header: {
                /** @description Lowercase hex HMAC-SHA256 of the exact raw body bytes, keyed with the UTF-8 bytes of the subscription's signing secret. Compare in constant time. During a secret rotation's overlap it is keyed with the previous secret until `previous_secret_expires_at` (see `rotateWebhookSecret`). */
                "X-Service-Signature": components["parameters"]["DeliverySignature"];
                /** @description Id of this delivery (one event to one subscription). The same on every retry; equal to `delivery_id` in the body. De-duplicate on it. */
                "X-Service-Delivery-Id": components["parameters"]["DeliveryId"];
                /** @description The event type, equal to `event_type` in the body. */
                "X-Service-Event-Type": components["parameters"]["DeliveryEventType"];
                /** @description 1 for the first attempt, 2 for the first retry, and so on. */
                "X-Service-Attempt": components["parameters"]["DeliveryAttempt"];
                /** @description Unix time in seconds at which this attempt was sent. Not covered by the signature (the body is signed, and the body is the same on every retry); use it to drop stale attempts, and de-duplicate on the delivery id. */
                "X-Service-Timestamp": components["parameters"]["DeliveryTimestamp"];
                /** @description Standard Webhooks message id. The delivery id (equal to `X-Service-Delivery-Id`), the same on every retry. */
                "webhook-id": components["parameters"]["StandardWebhookId"];
                /** @description Standard Webhooks timestamp, Unix seconds of this attempt (equal to `X-Service-Timestamp`). Signed by `webhook-signature`; reject attempts more than 5 minutes from your clock. */
                "webhook-timestamp": components["parameters"]["StandardWebhookTimestamp"];
                /**
                 * @description Standard Webhooks signatures, space-separated: `v1,` + base64 HMAC-SHA256 of
                 *     `webhook-id.webhook-timestamp.body`, keyed with the same key as
                 *     `X-Service-Signature` (`standard_webhooks_secret` is that key as `whsec_` + base64).
                 *     One entry normally; two during a secret rotation's overlap (new secret first).
                 */
                "webhook-signature": components["parameters"]["StandardWebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["ResidentEventDelivery"];
        responses: {
            200: components["responses"]["DeliveryAccepted"];
            410: components["responses"]["DeliveryGone"];
        };
    };
    deliverClinicalOrderCreated: {
        parameters: {
            query?: never;
            header: {
                /** @description Lowercase hex HMAC-SHA256 of the exact raw body bytes, keyed with the UTF-8 bytes of the subscription's signing secret. Compare in constant time. During a secret rotation's overlap it is keyed with the previous secret until `previous_secret_expires_at` (see `rotateWebhookSecret`). */
                "X-Service-Signature": components["parameters"]["DeliverySignature"];
                /** @description Id of this delivery (one event to one subscription). The same on every retry; equal to `delivery_id` in the body. De-duplicate on it. */
                "X-Service-Delivery-Id": components["parameters"]["DeliveryId"];
                /** @description The event type, equal to `event_type` in the body. */
                "X-Service-Event-Type": components["parameters"]["DeliveryEventType"];
                /** @description 1 for the first attempt, 2 for the first retry, and so on. */
                "X-Service-Attempt": components["parameters"]["DeliveryAttempt"];
                /** @description Unix time in seconds at which this attempt was sent. Not covered by the signature (the body is signed, and the body is the same on every retry); use it to drop stale attempts, and de-duplicate on the delivery id. */
                "X-Service-Timestamp": components["parameters"]["DeliveryTimestamp"];
                /** @description Standard Webhooks message id. The delivery id (equal to `X-Service-Delivery-Id`), the same on every retry. */
                "webhook-id": components["parameters"]["StandardWebhookId"];
                /** @description Standard Webhooks timestamp, Unix seconds of this attempt (equal to `X-Service-Timestamp`). Signed by `webhook-signature`; reject attempts more than 5 minutes from your clock. */
                "webhook-timestamp": components["parameters"]["StandardWebhookTimestamp"];
                /**
                 * @description Standard Webhooks signatures, space-separated: `v1,` + base64 HMAC-SHA256 of
                 *     `webhook-id.webhook-timestamp.body`, keyed with the same key as
                 *     `X-Service-Signature` (`standard_webhooks_secret` is that key as `whsec_` + base64).
                 *     One entry normally; two during a secret rotation's overlap (new secret first).
                 */
                "webhook-signature": components["parameters"]["StandardWebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["ResidentEventDelivery"];
        responses: {
            200: components["responses"]["DeliveryAccepted"];
            410: components["responses"]["DeliveryGone"];
        };
    };
    deliverClinicalResultCreated: {
        parameters: {
            query?: never;
            header: {
                /** @description Lowercase hex HMAC-SHA256 of the exact raw body bytes, keyed with the UTF-8 bytes of the subscription's signing secret. Compare in constant time. During a secret rotation's overlap it is keyed with the previous secret until `previous_secret_expires_at` (see `rotateWebhookSecret`). */
                "X-Service-Signature": components["parameters"]["DeliverySignature"];
                /** @description Id of this delivery (one event to one subscription). The same on every retry; equal to `delivery_id` in the body. De-duplicate on it. */
                "X-Service-Delivery-Id": components["parameters"]["DeliveryId"];
                /** @description The event type, equal to `event_type` in the body. */
                "X-Service-Event-Type": components["parameters"]["DeliveryEventType"];
                /** @description 1 for the first attempt, 2 for the first retry, and so on. */
                "X-Service-Attempt": components["parameters"]["DeliveryAttempt"];
                /** @description Unix time in seconds at which this attempt was sent. Not covered by the signature (the body is signed, and the body is the same on every retry); use it to drop stale attempts, and de-duplicate on the delivery id. */
                "X-Service-Timestamp": components["parameters"]["DeliveryTimestamp"];
                /** @description Standard Webhooks message id. The delivery id (equal to `X-Service-Delivery-Id`), the same on every retry. */
                "webhook-id": components["parameters"]["StandardWebhookId"];
                /** @description Standard Webhooks timestamp, Unix seconds of this attempt (equal to `X-Service-Timestamp`). Signed by `webhook-signature`; reject attempts more than 5 minutes from your clock. */
                "webhook-timestamp": components["parameters"]["StandardWebhookTimestamp"];
                /**
                 * @description Standard Webhooks signatures, space-separated: `v1,` + base64 HMAC-SHA256 of
                 *     `webhook-id.webhook-timestamp.body`, keyed with the same key as
                 *     `X-Service-Signature` (`standard_webhooks_secret` is that key as `whsec_` + base64).
                 *     One entry normally; two during a secret rotation's overlap (new secret first).
                 */
                "webhook-signature": components["parameters"]["StandardWebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["ResidentEventDelivery"];
        responses: {
            200: components["responses"]["DeliveryAccepted"];
            410: components["responses"]["DeliveryGone"];
        };
    };
}
