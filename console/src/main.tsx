// The console's entry: routes under /console, every page and resource with its own URL, the environment first.
import "./styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, Navigate, RouterProvider } from "react-router";
import { SessionProvider } from "./api/session.tsx";
import { Shell } from "./components/shell.tsx";
import { AcceptInvitation } from "./pages/accept-invitation.tsx";
import { ApiKeys } from "./pages/api-keys.tsx";
import { ApprovalDetail, Approvals } from "./pages/approvals.tsx";
import { AuditLog } from "./pages/audit-log.tsx";
import { ChartBench } from "./pages/chart-bench.tsx";
import { Composer } from "./pages/composer.tsx";
import { Dashboard } from "./pages/dashboard.tsx";
import { EventDetail, Events } from "./pages/events.tsx";
import { Members } from "./pages/members.tsx";
import { RESOURCES, ResourceDetail, ResourceList } from "./pages/resources.tsx";
import { SignIn } from "./pages/sign-in.tsx";
import { WebhookDetail, Webhooks } from "./pages/webhooks.tsx";

const router = createBrowserRouter(
  [
    { path: "/sign-in", element: <SignIn /> },
    { path: "/accept-invitation", element: <AcceptInvitation /> },
    { path: "/bench/chart", element: <ChartBench /> },
    { path: "/", element: <Navigate to="/sandbox/dashboard" replace /> },
    {
      path: "/:env",
      element: <Shell />,
      children: [
        { index: true, element: <Navigate to="dashboard" replace /> },
        { path: "dashboard", element: <Dashboard /> },
        { path: "composer", element: <Composer /> },
        { path: "api-keys", element: <ApiKeys /> },
        { path: "members", element: <Members /> },
        { path: "approvals", element: <Approvals /> },
        { path: "approvals/:id", element: <ApprovalDetail /> },
        { path: "events", element: <Events /> },
        { path: "events/:id", element: <EventDetail /> },
        { path: "webhooks", element: <Webhooks /> },
        { path: "webhooks/:id", element: <WebhookDetail /> },
        { path: "audit-log", element: <AuditLog /> },
        ...RESOURCES.flatMap((resource) => [
          { path: resource.path, element: <ResourceList resource={resource} /> },
          { path: `${resource.path}/:id`, element: <ResourceDetail resource={resource} /> },
        ]),
      ],
    },
  ],
  { basename: "/console" },
);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>
  </StrictMode>,
);
