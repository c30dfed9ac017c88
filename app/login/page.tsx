import type { Metadata } from 'next';
import { Suspense } from 'react';
import { LoginForm } from '@/components/login/login-form';
import { singleSignOnButton } from '@/lib/auth/oidc-options';

export const metadata: Metadata = { title: 'Sign in' };

export default function LoginPage() {
  return (
    <div className="login-wrap">
      <Suspense fallback={null}>
        <LoginForm sso={singleSignOnButton()} />
      </Suspense>
    </div>
  );
}
