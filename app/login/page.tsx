import type { Metadata } from 'next';
import { Suspense } from 'react';
import { LoginForm } from '@/components/login/login-form';

export const metadata: Metadata = { title: 'Sign in' };

export default function LoginPage() {
  return (
    <div className="login-wrap">
      <Suspense fallback={null}>
        <LoginForm />
      </Suspense>
    </div>
  );
}
