import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AccountThemeScript } from "@/components/theme/account-theme-script";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Switchboard", template: "%s · Switchboard" },
  description: "A browser console for MCP servers",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // next-themes sets the theme class on <html> before hydration, so React must not compare it.
    <html lang="en" suppressHydrationWarning>
      <body className="font-sans">
        <AccountThemeScript />
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
