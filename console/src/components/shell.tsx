// The frame of every signed-in page: organization and member, the sandbox / production switch (it is part of the URL,
// so every deep link names its environment), navigation, sign-out. Production pages carry a banner.
import { useEffect, useState } from "react";
import { Link, NavLink, Outlet, useLocation, useNavigate, useParams } from "react-router";
import { api, type Environment } from "../api/client.ts";
import { useSession } from "../api/session.tsx";
import { ErrorState, Loading } from "./states.tsx";

export const NAVIGATION: { path: string; label: string }[] = [
  { path: "dashboard", label: "Dashboard" },
  { path: "composer", label: "Composer" },
  { path: "approvals", label: "Approvals" },
  { path: "events", label: "Events" },
  { path: "webhooks", label: "Webhooks" },
  { path: "payments", label: "Payments" },
  { path: "bank-transfers", label: "Bank transfers" },
  { path: "custody-wallets", label: "Custody wallets" },
  { path: "custody-transfers", label: "Custody transfers" },
  { path: "cards", label: "Cards" },
  { path: "card-programmes", label: "Card programmes" },
  { path: "issuance-requests", label: "Issuance requests" },
  { path: "contracts", label: "Contract projects" },
  { path: "api-keys", label: "API keys" },
  { path: "members", label: "Members" },
  { path: "audit-log", label: "Audit log" },
];

export function useEnvironment(): Environment {
  const { env } = useParams();
  return env === "production" ? "production" : "sandbox";
}

export function Shell() {
  const { current, refresh, signedOut } = useSession();
  const environment = useEnvironment();
  const location = useLocation();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    if (current.state === "idle") void refresh();
  }, [current.state, refresh]);
  useEffect(() => {
    if (current.state === "signed-out")
      navigate(`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`, { replace: true });
  }, [current.state, navigate, location.pathname, location.search]);
  if (current.state === "idle" || current.state === "loading" || current.state === "signed-out") return <Loading what="your session" />;
  if (current.state === "error") return <ErrorState error={current.error} retry={() => void refresh()} />;
  const { session } = current;
  // The same page in the other environment (a resource's id belongs to one environment, so it is dropped).
  const page = location.pathname.split("/")[2] || "dashboard";

  async function signOut() {
    await api(environment)
      .DELETE("/api/v2/agent/sessions/current")
      .catch(() => undefined);
    signedOut();
    navigate("/sign-in", { replace: true });
  }

  return (
    <div className={`shell ${environment}`}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="navigation"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <Link to={`/${environment}/dashboard`} className="brand">
          Coinplane
        </Link>
        <span className="org" title="Organization">
          {session.organizationName}
        </span>
        <fieldset className="env-switch">
          <legend className="visually-hidden">Environment</legend>
          <Link to={`/sandbox/${page}`} aria-current={environment === "sandbox" ? "true" : undefined}>
            Sandbox
          </Link>
          <Link to={`/production/${page}`} aria-current={environment === "production" ? "true" : undefined}>
            Production
          </Link>
        </fieldset>
        <span className="member">
          {session.name} <span className="muted">({session.role})</span>
        </span>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      {environment === "production" ? (
        <p className="production-banner" role="note">
          Production: live money. Actions here move real funds.
        </p>
      ) : null}
      <div className="body">
        <nav id="navigation" aria-label="Console" className={menuOpen ? "open" : ""}>
          <ul>
            {NAVIGATION.map((item) => (
              <li key={item.path}>
                <NavLink to={`/${environment}/${item.path}`} onClick={() => setMenuOpen(false)}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
